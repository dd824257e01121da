package alerts_test

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/alerts"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
)

func init() { alerts.Write = render.Rules }
