package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"
)

func TestVersionFormats(t *testing.T) {
	for _, format := range []string{"", "json", "yaml"} {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		cmd := NewVersionCmd("kubectl-ctrldiag", streams)
		cmd.SetArgs([]string{"-o", format})
		if format == "" {
			cmd.SetArgs(nil)
		}
		if err := cmd.Execute(); err != nil {
			t.Fatalf("-o %q: %v", format, err)
		}
		if errOut.Len() != 0 {
			t.Errorf("-o %q wrote to stderr: %q", format, errOut)
		}
		var got map[string]any
		switch format {
		case "":
			if !strings.HasPrefix(out.String(), "kubectl-ctrldiag ") || strings.Count(out.String(), "\n") != 1 {
				t.Errorf("text output = %q, want one line starting with kubectl-ctrldiag", out)
			}
			continue
		case "json":
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
		case "yaml":
			if err := yaml.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range []string{"version", "commit", "buildDate", "goVersion", "platform"} {
			if s, _ := got[k].(string); s == "" {
				t.Errorf("-o %s: field %q missing in %v", format, k, got)
			}
		}
	}
}

func TestVersionRejectsUnknownFormat(t *testing.T) {
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	cmd := NewVersionCmd("kubectl-ctrldiag", streams)
	cmd.SetArgs([]string{"-o", "xml"})
	cmd.SilenceErrors = true
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), `unknown output format "xml"`) || !strings.Contains(err.Error(), "json, yaml") {
		t.Fatalf("err = %v", err)
	}
	if cmd.SilenceUsage {
		t.Error("a bad -o value is a usage error: usage must not be silenced")
	}
}

// Each binary names itself: the operator's version must not read as the plugin's.
func TestVersionNamesTheBinary(t *testing.T) {
	for _, binary := range []string{"kubectl-ctrldiag", "kubectl-ctrldiag-operator"} {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		cmd := NewVersionCmd(binary, streams)
		cmd.SetArgs(nil)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), binary+" ") {
			t.Errorf("%s version printed %q, want it to start with %q", binary, out, binary+" ")
		}
		if !strings.HasSuffix(cmd.Short, " "+binary) {
			t.Errorf("%s version's help says %q", binary, cmd.Short)
		}
	}
}
