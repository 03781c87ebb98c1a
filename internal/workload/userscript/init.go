package userscript

import (
	"context"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script"
)

// Init runs the init script at scale x, once, on e: under the simple
// protocol (its SQL as written, with the variables' values pasted in, so
// that DDL takes them), with :scale set to x and the -D variables.
func (w *Workload) Init(ctx context.Context, e dbms.Engine, x int64) error {
	if w.init == nil {
		return nil
	}
	p, err := initProgram(*w.init, w.defines, w.opts.AllowShell, x)
	if err != nil {
		return err
	}
	seeds := p.Seeds(1)
	choose := seeds.Base.Split()
	c := p.NewClient(0, seeds.Clients[0], &choose, seeds.DefaultSeed)
	if err := c.Setup(ctx, e); err != nil {
		return fmt.Errorf("the init script: %w", err)
	}
	if res := c.Run(ctx, nil); res.Err != nil {
		return fmt.Errorf("the init script: %w", res.Err)
	}
	return nil
}

// initProgram is the init script's program at scale x.
func initProgram(src script.Source, defines []script.Define, allowShell bool, x int64) (*script.Program, error) {
	src.Script.Weight = 1
	return script.NewProgram([]script.Source{src}, script.Options{Protocol: script.Simple, MaxTries: 1,
		Defines: defines, AllowShell: allowShell, Scale: x})
}
