package alerts_test

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/alerts"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
)

func init() { alerts.Write = render.Rules }
