package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// FilePages are the saved pages of one target, as one --from-file value gives them, and the
// name the target is shown by.
type FilePages struct {
	// Name is the target's name: the NAME of NAME=PATH, else the base name of the last page
	// (the AFTER of BEFORE,AFTER), made longer when two targets would share it.
	Name string
	// Paths are one page, or BEFORE and AFTER; "-" is standard input.
	Paths []string
	// Named is true when the value chose the name (NAME=...).
	Named bool
}

// nameRE is what a chosen NAME may be: letters, digits, '.', '_' and '-', starting with a
// letter or digit. It has no '/', so "dir/a=b.prom" is always a path. It is compiled when
// first used (its 252 repeats cost every start of the binary otherwise).
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$`) })

// stdinName names the target of a page read from standard input ("-").
const stdinName = "stdin"

// ParseFiles reads the --from-file values and names their targets. A value is PATH,
// BEFORE,AFTER, NAME=PATH or NAME=BEFORE,AFTER. The text before the first "=" is a NAME only
// when it is a valid name (letters, digits, '.', '_', '-'; no '/') and no file is there under
// the value's first page as written: a path that exists as given wins, and "./a=b.prom" is
// always a path. A target not named is named by the base name of its last page; when two
// would share a name, each is named by as many of its last path elements as tell it apart
// ("before/kcm.prom", "after/kcm.prom"), and the same page given twice gets "#2", "#3".
// Two values that choose the same NAME are refused.
func ParseFiles(values []string) ([]FilePages, error) {
	out := make([]FilePages, 0, len(values))
	stdin := 0
	for _, v := range values {
		fp, err := parseFile(v, exists)
		if err != nil {
			return nil, err
		}
		for _, p := range fp.Paths {
			if p == "-" {
				stdin++
			}
		}
		out = append(out, fp)
	}
	if stdin > 1 {
		return nil, fmt.Errorf(`--from-file: standard input ("-") can be read only once`)
	}
	if err := name(out); err != nil {
		return nil, err
	}
	return out, nil
}

// exists says whether a file (of any type) is at p.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// parseFile reads one value; its Name is left empty unless the value chose it.
func parseFile(v string, exists func(string) bool) (FilePages, error) {
	var fp FilePages
	pages := v
	if n, rest, ok := strings.Cut(v, "="); ok && nameRE().MatchString(n) {
		first, _, _ := strings.Cut(v, ",")
		if !exists(first) {
			fp.Name, fp.Named, pages = n, true, rest
		}
	}
	fp.Paths = strings.Split(pages, ",")
	if len(fp.Paths) > 2 || pages == "" || strings.HasPrefix(pages, ",") || strings.HasSuffix(pages, ",") {
		return FilePages{}, fmt.Errorf("--from-file %q: give one path, or two as BEFORE,AFTER, each optionally after NAME=", v)
	}
	return fp, nil
}

// name names the targets that did not choose a name, each apart from every other.
func name(fps []FilePages) error {
	taken := map[string]bool{}
	for _, fp := range fps {
		if !fp.Named {
			continue
		}
		if taken[fp.Name] {
			return fmt.Errorf("--from-file: the name %q is given to two targets: give each its own NAME=", fp.Name)
		}
		taken[fp.Name] = true
	}
	// Group the others by base name, in their order.
	var bases []string
	groups := map[string][]int{}
	for i, fp := range fps {
		if fp.Named {
			continue
		}
		b := tail(last(fp), 1)
		if _, ok := groups[b]; !ok {
			bases = append(bases, b)
		}
		groups[b] = append(groups[b], i)
	}
	for _, b := range bases {
		idx := groups[b]
		names := longEnough(fps, idx, taken)
		for k, i := range idx {
			fps[i].Name = names[k]
			taken[names[k]] = true
		}
	}
	return nil
}

// longEnough names the targets idx, which share a base name, by as few of their last path
// elements as tell them apart from each other and from the names taken; what still
// collides (the same page twice) gets "#2", "#3", ... in order.
func longEnough(fps []FilePages, idx []int, taken map[string]bool) []string {
	names := make([]string, len(idx))
	for depth := 1; ; depth++ {
		// The same page given twice is no clash: "#2" tells those apart below.
		seen := map[string]string{}
		clash, grew := false, false
		for k, i := range idx {
			n, full := tail(last(fps[i]), depth), tail(last(fps[i]), 1<<20)
			grew = grew || n != names[k]
			names[k] = n
			if other, ok := seen[n]; (ok && other != full) || taken[n] {
				clash = true
			}
			seen[n] = full
		}
		if !clash || !grew {
			break
		}
	}
	used := map[string]bool{}
	for n := range taken {
		used[n] = true
	}
	for k, n := range names {
		for c := 2; used[names[k]]; c++ {
			names[k] = fmt.Sprintf("%s#%d", n, c)
		}
		used[names[k]] = true
	}
	return names
}

// last is the page a target is named after: its last (the AFTER of BEFORE,AFTER).
func last(fp FilePages) string { return fp.Paths[len(fp.Paths)-1] }

// tail is the last depth elements of p's absolute path, joined by "/"; "stdin" for "-".
func tail(p string, depth int) string {
	if p == "-" {
		return stdinName
	}
	if depth < 1 {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	parts := strings.FieldsFunc(filepath.ToSlash(abs), func(r rune) bool { return r == '/' })
	if len(parts) == 0 {
		return filepath.ToSlash(abs)
	}
	if depth > len(parts) {
		depth = len(parts)
	}
	return strings.Join(parts[len(parts)-depth:], "/")
}
