package collect

import (
	"context"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
)

// namespaceList is the namespaces listed once, up to objects.MaxNamespaces, for the kinds read
// namespace by namespace: the report's namespace first, then the others by name.
type namespaceList struct {
	names []string
	more  int // namespaces listed beyond the bound
	err   error
}

// mayListEach is an objects.MayListEach: when the user may list namespaces (checked first),
// the namespaces are listed once, up to objects.MaxNamespaces with ns first, and each is asked,
// once per kind, whether the user may list the kind there; the answer is kept per kind.
func (c *cluster) mayListEach(ctx context.Context, k objects.Kind, ns string) ([]string, int, error) {
	c.mu.Lock()
	a, asked := c.each[k]
	c.mu.Unlock()
	if !asked {
		a.names, a.more, a.err = c.askEach(ctx, k, ns)
		c.mu.Lock()
		if c.each == nil {
			c.each = map[objects.Kind]namespaceList{}
		}
		c.each[k] = a
		c.mu.Unlock()
	}
	return a.names, a.more, a.err
}

// askEach asks in which of the namespaces the user may list the kind.
func (c *cluster) askEach(ctx context.Context, k objects.Kind, ns string) ([]string, int, error) {
	l := c.namespaces(ctx, ns)
	if l.err != nil {
		return nil, 0, l.err
	}
	// The reviews are asked a few at a time: a controller of many kinds (kube-controller-manager)
	// asks up to objects.MaxNamespaces each.
	allowed, failed, err := access.Each(ctx, l.names, func(ctx context.Context, name string) (bool, error) {
		missing, err := access.Missing(ctx, c.kube.Client, []access.Permission{{Verb: "list", Group: k.Group, Resource: k.Resource, Namespace: name}})
		return err == nil && len(missing) == 0, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("whether you may list %s in namespace %s could not be checked: %v", k.GroupResource(), failed, err)
	}
	return allowed, l.more, nil
}

// namespaces lists the namespaces once.
func (c *cluster) namespaces(ctx context.Context, ns string) namespaceList {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nsList != nil {
		return *c.nsList
	}
	l := listNamespaces(ctx, c, ns)
	c.nsList = &l
	return l
}

// maxListedNamespaces bounds the namespaces listed (the rest are counted when the server says
// how many remain).
const maxListedNamespaces = 5000

func listNamespaces(ctx context.Context, c *cluster, ns string) namespaceList {
	missing, err := access.Missing(ctx, c.kube.Client, []access.Permission{{Verb: "list", Resource: "namespaces"}})
	switch {
	case err != nil:
		return namespaceList{err: fmt.Errorf("whether you may list namespaces could not be checked: %v", err)}
	case len(missing) > 0:
		return namespaceList{err: fmt.Errorf("needs RBAC verb list on namespaces")}
	}
	var l namespaceList
	var all []string
	opts := metav1.ListOptions{Limit: 500}
	for {
		got, err := c.kube.Client.CoreV1().Namespaces().List(ctx, opts)
		if err != nil {
			return namespaceList{err: fmt.Errorf("list namespaces: %v", err)}
		}
		for _, n := range got.Items {
			all = append(all, n.Name)
		}
		if got.Continue == "" {
			break
		}
		if len(all) >= maxListedNamespaces {
			if got.RemainingItemCount != nil {
				l.more = int(*got.RemainingItemCount) // counted, not named
			}
			break
		}
		opts.Continue = got.Continue
	}
	slices.Sort(all)
	if i := slices.Index(all, ns); ns != "" && i >= 0 {
		l.names = append(l.names, ns)
		all = slices.Delete(all, i, i+1)
	}
	for _, name := range all {
		if len(l.names) < objects.MaxNamespaces {
			l.names = append(l.names, name)
		} else {
			l.more++
		}
	}
	return l
}
