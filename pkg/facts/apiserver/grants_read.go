package apiserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
)

// Bounds of the read: ClusterRoleBindings per page and in all.
var (
	bindingsPageSize int64 = 500
	maxBindings            = 5000
)

// grantNeeds is the RBAC that decides; the error of a decision that could not be made says it.
const grantNeeds = "needs RBAC verb list on clusterrolebindings.rbac.authorization.k8s.io and get on clusterroles.rbac.authorization.k8s.io"

// grantPermissions are what Reader reads with, checked first.
var grantPermissions = []access.Permission{
	{Verb: "list", Group: rbacv1.GroupName, Resource: "clusterrolebindings", For: "to tell whether an operator's ServiceAccount may reconcile every namespace"},
	{Verb: "get", Group: rbacv1.GroupName, Resource: "clusterroles", For: "to tell whether an operator's ServiceAccount may reconcile every namespace"},
}

// GrantReader answers, for ServiceAccounts, which ClusterRoles let them list or watch in every
// namespace. It lists the ClusterRoleBindings once, gets each ClusterRole a ServiceAccount is
// bound to once, and keeps each ServiceAccount's grants; it is safe for concurrent use.
type GrantReader struct {
	client kubernetes.Interface

	mu       sync.Mutex
	listed   bool
	err      error
	bindings []rbacv1.ClusterRoleBinding
	roles    map[string]*rbacv1.ClusterRole
	accounts map[string][]Grant
	// failed are the ServiceAccounts whose grants could not be read, and why.
	failed map[string]error
}

// NewGrantReader reads through client.
func NewGrantReader(client kubernetes.Interface) *GrantReader {
	return &GrantReader{client: client, roles: map[string]*rbacv1.ClusterRole{}, accounts: map[string][]Grant{}, failed: map[string]error{}}
}

// Grant returns the first grant (by ClusterRoleBinding name) that lets the ServiceAccount
// account ("namespace/name") list or watch the resource of group in every namespace; ok false
// when none does. An error says why it could not be decided, with the RBAC that would
// decide it.
func (r *GrantReader) Grant(ctx context.Context, account, group, resource string) (g Grant, ok bool, err error) {
	grants, err := r.grants(ctx, account)
	if err != nil {
		return Grant{}, false, err
	}
	for _, g := range grants {
		if g.Covers(group, resource) {
			return g, true, nil
		}
	}
	return Grant{}, false, nil
}

// grants are the ServiceAccount's grants, read once.
func (r *GrantReader) grants(ctx context.Context, account string) ([]Grant, error) {
	ns, name, found := strings.Cut(account, "/")
	if !found || ns == "" || name == "" {
		return nil, fmt.Errorf("ServiceAccount %q is not namespace/name", account)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.accounts[account]; ok {
		return g, nil
	}
	if err, ok := r.failed[account]; ok {
		return nil, err
	}
	if err := r.list(ctx); err != nil {
		return nil, err
	}
	var failed error
	g := Grants(ns, name, r.bindings, func(role string) *rbacv1.ClusterRole {
		cr, err := r.role(ctx, role)
		if err != nil && failed == nil {
			failed = err
		}
		return cr
	})
	if failed != nil {
		r.failed[account] = failed
		return nil, failed
	}
	r.accounts[account] = g
	return g, nil
}

// list reads the ClusterRoleBindings once, after checking the user may read them and the
// ClusterRoles; its error is kept and given again.
func (r *GrantReader) list(ctx context.Context) error {
	if r.listed {
		return r.err
	}
	r.listed = true
	missing, err := access.Missing(ctx, r.client, grantPermissions)
	switch {
	case err != nil:
		r.err = fmt.Errorf("whether you may read them could not be checked (%v); it %s", err, grantNeeds)
		return r.err
	case len(missing) > 0:
		r.err = errors.New(grantNeeds)
		return r.err
	}
	opts := metav1.ListOptions{Limit: bindingsPageSize}
	for {
		l, err := r.client.RbacV1().ClusterRoleBindings().List(ctx, opts)
		if err != nil {
			r.err = fmt.Errorf("listing clusterrolebindings failed: %s", grantWhy(err))
			return r.err
		}
		for i := range l.Items {
			if len(r.bindings) >= maxBindings {
				break
			}
			b := l.Items[i]
			r.bindings = append(r.bindings, rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: b.Name}, Subjects: b.Subjects, RoleRef: b.RoleRef})
		}
		if l.Continue == "" || len(r.bindings) >= maxBindings {
			return nil
		}
		opts.Continue = l.Continue
	}
}

// role gets a ClusterRole once; one that is not there is nil, without error.
func (r *GrantReader) role(ctx context.Context, name string) (*rbacv1.ClusterRole, error) {
	if cr, ok := r.roles[name]; ok {
		return cr, nil
	}
	cr, err := r.client.RbacV1().ClusterRoles().Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		r.roles[name] = nil
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("getting ClusterRole %s failed: %s", name, grantWhy(err))
	}
	kept := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: cr.Name}, Rules: cr.Rules}
	r.roles[name] = kept
	return kept, nil
}

// grantWhy says grantWhy a request failed, naming the RBAC when it was refused.
func grantWhy(err error) string {
	if apierrors.IsForbidden(err) {
		return grantNeeds
	}
	return err.Error()
}
