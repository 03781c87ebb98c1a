package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// DSBenchSetup is everything a sweep needs besides its plan. DB "" means
// SQLite in the run directory (WAL, with a busy timeout so that writers
// queue instead of failing at once).
type DSBenchSetup = Setup

// errNoProcedure is returned when --form procedure names an engine without
// stored procedures; the CLI reports it as bad input.
var errNoProcedure = fmt.Errorf("no server-side procedures")

// RunDSBench runs the sweep: for every scale population, cycles,
// consistency checks and statistics; then the DSI, the tables, the
// diagrams, the load log and the archive. A server's URL is opened before
// anything is written. It returns what was measured even on failure.
func RunDSBench(ctx context.Context, s DSBenchSetup, plan DSBenchPlan, pr *progress.Printer) (*results.DSBenchResults, error) {
	embedded := func(dir string) string { return dbms.DefaultSharedURL(filepath.Join(dir, "dsbench.db")) }
	w, err := workload.NewConfigured(plan.Mode, plan.WorkloadOptions)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	s.Live.loadPlan(plan.Scales, plan.Cycles, plan.Duration)
	var sp *spread
	var fr *failoverRun
	o, err := open(ctx, s, "dsbench", plan.Seed, embedded, func(e dbms.Engine) error {
		if err := resolveForm(&plan, w, e); err != nil {
			return err
		}
		url := s.DB
		if url == "" {
			abs, err := filepath.Abs(s.Dir)
			if err != nil {
				return err
			}
			url = embedded(abs)
		}
		if err := checkSession(ctx, url, plan.Session); err != nil || s.DB == "" {
			return err
		}
		var err error
		if sp, err = newSpread(ctx, s.DB, plan.Spread); err != nil || plan.Fault == nil {
			return err
		}
		fr, err = newFailoverRun(plan.Fault, sp, pr)
		return err
	})
	if err != nil {
		return nil, err
	}
	defer o.close()
	e, run, man, url, info := o.e, o.run, o.man, o.url, o.man.Engine
	res := &results.DSBenchResults{
		Header: results.Header{Experiment: "dsbench", Engine: e.Name(), EngineVersion: info.Version}, Mode: plan.Mode, Form: plan.Form,
		Workload: workloadInfo(w),
		Nodes:    max(plan.Nodes, 1), Threads: plan.Threads, Connections: max(plan.Conns, 1), Cycles: plan.Cycles,
		DurationS: plan.Duration.Seconds(), Isolation: plan.Isolation.String(), Retry: plan.Retry, Prepare: plan.Prepare,
		Reconnect: plan.Reconnect, RateTPS: plan.Rate, Confidence: plan.Confidence, Seed: plan.Seed,
	}
	if plan.resilient() {
		res.BackoffCapS, res.GiveUpS = plan.backoff()
	}
	r := &dsbenchRun{w: w, url: url, e: e, opened: o, plan: plan, run: run, res: res, pr: pr, live: s.Live, spread: sp, failover: fr}
	if sp != nil {
		res.Cluster, res.Spread = sp.nodes, plan.Spread
		pr.Line("cluster of %d nodes (%s); clients spread %s", len(sp.nodes), sp.roles(), plan.Spread)
	}
	cfg := workload.ClientConfig{Prepare: plan.Prepare, Isolation: plan.Isolation, Retry: plan.Retry}
	if plan.Form == formProcedure {
		cfg.Procedure, _ = procedureOf(w, e) // resolveForm found it
		if cfg.Procedure.Defect != "" && max(plan.Nodes, 1)*max(plan.Threads, 1)*max(plan.Conns, 1) > 1 {
			r.warn("--form procedure: " + cfg.Procedure.Defect + "; the consistency check will say if it happened here")
		}
	}
	r.clients = newDSBenchClients(w, cfg, plan.Threads, plan.Nodes)
	r.clients.session, r.clients.seed = plan.Session, plan.Seed
	stopLoad := r.sampleLoad(ctx)
	var stopCluster func()
	r.cluster, stopCluster = r.startClusterSampler(ctx)
	where := ""
	if plan.Remote != nil {
		where = fmt.Sprintf(" on each of %d agents", plan.Nodes)
	}
	pr.Line("dbgauge dsbench on %s %s: %s, %s form, scales %v, %d cycles of %s, %d threads x %d connections%s, run directory %s",
		info.Engine, info.Version, plan.Mode, plan.Form, plan.Scales, plan.Cycles, plan.Duration, max(plan.Threads, 1), max(plan.Conns, 1), where, run.Dir)
	var masterErr error
	if plan.Remote != nil {
		masterErr = r.startMaster(ctx, s.Version)
	}
	u := newUnits(s, run, &res.Header, pr)
	done := doneScales(s.Resume)
	runErr := masterErr
	for i, x := range plan.Scales {
		if runErr != nil {
			break
		}
		if sr, ok := done[x]; ok && u.completed(scaleUnit(x)) {
			res.Scales = append(res.Scales, sr)
			r.liveScale(&sr)
			pr.Line("scale %-6d complete before the run was resumed: kept", x)
			continue
		}
		var sr *results.ScaleResult
		err := u.do(ctx, scaleUnit(x), func(ctx context.Context, try int) error {
			if i > 0 || try > 0 {
				// A fresh control session per scale, as DSBENCH recreates
				// the database: Firebird refuses to drop tables that an
				// attachment with a retained transaction has used. A
				// scale tried again after a fault needs one too. A
				// resilient sweep waits out a server that is restarting.
				if r.e != nil {
					r.e.Close()
				}
				r.e, o.e = nil, nil
				if err := r.control(ctx, new(driver.ErrorCounts), func(dbms.Engine) error { return nil }); err != nil {
					return err
				}
			}
			var err error
			sr, err = r.dsbenchScale(ctx, x)
			if sr != nil {
				// Before the unit's completion: a resumed run takes its
				// scales back from these entries.
				run.Journal().Append(sr)
			}
			return err
		})
		if sr != nil {
			res.Scales = append(res.Scales, *sr)
			if err := run.WriteJSON("results.json", res); err != nil { // nothing measured is lost
				pr.Line("warning: results.json not written: %v", err)
			}
			if len(sr.Cycles) == 0 {
				pr.Line("scale %-6d no cycle finished: no rate", x)
			} else {
				if len(sr.Cycles) == plan.Cycles {
					r.liveScale(sr) // an unfinished scale has no official rate
				}
				pr.Line("scale %-6d median %.1f tps (mean %.1f, sd %.1f), %d transactions, %d failed, consistent %s; per transaction: %.2f kB written, %.0f network bytes, %.3f ms iowait, %.1f us client CPU; %s",
					x, sr.MedianTPS, sr.MeanTPS, sr.StddevTPS, sr.Transactions, sr.Failed, sr.Consistency(),
					sr.WriteKBPerTx, sr.NetBytesPerTx, sr.IOWaitMSPerTx, 1e6*sr.ClientCPUS/max(float64(sr.Transactions), 1), cpuLine(sr))
			}
		}
		if err != nil {
			runErr = err
			break
		}
	}
	stopLoad()
	stopCluster()
	r.stopMaster(runErr)
	if runErr == nil && plan.Drop {
		tables := w.Schema(plan.Scales[len(plan.Scales)-1]).Names()
		for i := len(tables) - 1; i >= 0; i-- {
			if err := r.e.DropTable(ctx, tables[i]); err != nil {
				runErr = fmt.Errorf("drop %s: %w", tables[i], err)
				break
			}
		}
	}
	r.finish()
	runErr = runOutcome(ctx, run, runErr, &res.Complete, &res.Error)
	runErr = andErr(runErr, writeDSBench(run, man, res))
	// The database is closed before the command packs the run directory
	// (with its report) into an archive.
	o.close()
	return res, runErr
}

// reopen replaces the control session with a new one. A failure is a
// fault of the connection, not the user's mistake: the sweep has measured.
func (r *dsbenchRun) reopen(ctx context.Context) error {
	err := r.opened.reopen(ctx)
	r.e = r.opened.e
	if err != nil {
		return fmt.Errorf("the control session: %w", driver.MidRun(err))
	}
	return nil
}

// checkSession runs the clients' first statements (--session) on a
// session of its own before anything is written: a statement the engine
// refuses is the user's mistake, found before the run instead of in every
// client; the control session keeps its own settings.
func checkSession(ctx context.Context, url string, stmts []string) error {
	if len(stmts) == 0 {
		return nil
	}
	u, err := dbms.ParseURL(url)
	if err != nil {
		return err
	}
	e, _, err := dbms.OpenNode(ctx, u)
	if err != nil {
		return err
	}
	defer e.Close()
	if err := runSession(ctx, e, stmts); err != nil {
		return dbms.Wrap(dbms.BadInput, err)
	}
	return nil
}

// CheckAcksPlan refuses a load whose acknowledged writes cannot be
// checked (checked: --check-acks or a fault): the check reads each
// transaction's tag back, which only a workload that writes and tags
// (workload.Tagger) writes, in the client-statements form. flag is the
// flag that named the workload (mode or workload), for the message. The
// command line asks it before anything is written.
func CheckAcksPlan(name, flag, form string, checked bool) error {
	if !checked {
		return nil
	}
	w, err := workload.New(name)
	if err != nil {
		return err
	}
	return checkAcks(w, flag, form)
}

// checkAcks is CheckAcksPlan for the run's workload, configured.
func checkAcks(w workload.Workload, flag, form string) error {
	name := w.Meta().Name
	if _, tags := w.(workload.Tagger); !tags || !w.Writes() {
		what := "writes nothing to check"
		if w.Writes() {
			what = "cannot tag its writes"
		}
		return fmt.Errorf("--check-acks: --%s %s %s: use %s or leave --check-acks out", flag, name, what, tagging(flag))
	}
	if form == formProcedure {
		return fmt.Errorf("--form procedure: the check of acknowledged writes (--check-acks, --fault) tags each transaction's rows, which a procedure cannot: use --form statements")
	}
	return nil
}

// tagging names the registered workloads whose writes the check of
// acknowledged writes can follow, as flag choices.
func tagging(flag string) string {
	names := workload.Tagging()
	if len(names) == 0 {
		return "no workload here (none tags its writes)"
	}
	return "--" + flag + " " + strings.Join(names, " or --"+flag+" ")
}

// resolveForm picks the engine's default form (the workload's procedure
// where the workload makes it its default and the engine has one without
// a known defect, else the statements), and refuses the
// procedure form where the engine has none. A workload without a
// procedure form runs its statements.
func resolveForm(p *DSBenchPlan, w workload.Workload, e dbms.Engine) error {
	if p.CheckAcks || p.Fault != nil {
		if err := checkAcks(w, "workload", p.Form); err != nil {
			return dbms.Wrap(dbms.BadInput, err)
		}
	}
	pw, ok := w.(workload.Procedurer)
	if !ok || p.Fault != nil || p.CheckAcks {
		p.Form = formStatements
		return nil
	}
	proc, err := pw.Procedure(e)
	switch p.Form {
	case "":
		p.Form = formStatements
		if err == nil && proc.Default && proc.Defect == "" {
			p.Form = formProcedure
		}
	case formProcedure:
		if err != nil {
			return dbms.Wrap(dbms.BadInput, fmt.Errorf("--form procedure: %s has %w; use --form statements", e.Name(), errNoProcedure))
		}
	}
	return nil
}

// workloadInfo is what the stored results say of the workload, so that
// the reports name it without knowing it.
func workloadInfo(w workload.Workload) *results.WorkloadInfo {
	m := w.Meta()
	info := &results.WorkloadInfo{Title: m.Title, Description: m.Description, Writes: w.Writes()}
	if v, ok := w.(workload.Varianter); ok {
		info.Variant = v.Variant()
	}
	for _, t := range w.Types() {
		info.Types = append(info.Types, results.WorkloadType{Name: t.Name, Weight: t.Weight})
	}
	return info
}

// sampleLoad writes CPU, disk and network load every second into
// results.log (seed 001 §2.5) while the sweep runs.
func (r *dsbenchRun) sampleLoad(ctx context.Context) func() {
	// Appended to: a resumed run continues the log of its first part.
	f, err := os.OpenFile(r.run.Path("results.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		r.warn("no load log: " + err.Error())
		return func() {}
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		fmt.Fprintf(f, "# resumed %s\n", time.Now().UTC().Format(time.RFC3339))
	} else {
		fmt.Fprintln(f, "# time scale cpu_user% cpu_system% cpu_iowait% cpu_idle% disk_read_bytes disk_write_bytes disk_read_ms disk_write_ms net_rx_bytes net_tx_bytes")
	}
	stop, err := sysinfo.StartSampler(ctx, time.Second, func(s sysinfo.Sample) {
		r.addLoad(s)
		r.liveLoad(s)
		fmt.Fprintf(f, "%s %d %.1f %.1f %.1f %.1f %d %d %d %d %d %d\n", s.Time.UTC().Format(time.RFC3339), r.clients.scale.Load(),
			s.CPU.User, s.CPU.System, s.CPU.IOWait, s.CPU.Idle, s.Disk.ReadBytes, s.Disk.WriteBytes, s.Disk.ReadMS, s.Disk.WriteMS, s.Net.RxBytes, s.Net.TxBytes)
	})
	if err != nil {
		f.Close()
		r.warn("no load log: " + err.Error())
		return func() {}
	}
	return func() { stop(); f.Close() }
}

// writeDSBench writes results.json, the 23-column tables, the diagrams and
// the finished manifest.
func writeDSBench(run *results.Run, man *results.Manifest, res *results.DSBenchResults) error {
	cerr := writeOutputs(run, res)
	now := time.Now().UTC()
	man.Finished = &now
	man.Notes = append(man.Notes, res.Warnings...)
	if b, err := json.Marshal(res.DSISettings); err == nil {
		man.Notes = append(man.Notes, "DSI settings: "+string(b))
	}
	if err := run.WriteJSON("manifest.json", man); err != nil {
		return err
	}
	return cerr
}
