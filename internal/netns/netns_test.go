package netns_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/netns"
	"github.com/dbgauge/dbgauge/internal/netns/netnstest"
)

// These bound the waits of the tests so that a broken network fails them
// instead of hanging them; none is a threshold the tests assert.
const (
	waitLine = 30 * time.Second // for a line that must arrive
	// failedDial kills a connect that must fail. At 2.5 s, the neighbour
	// (ARP) entry it made is still resolving (3 probes, 1 s apart) when Heal
	// comes, which is what Heal must cope with.
	failedDial   = 2500 * time.Millisecond
	expectedDial = 30 * time.Second // a connect that must succeed
)

// line is one line a listener received, and from which address.
type line struct{ from, text string }

// listen accepts TCP connections on host:0 until the test ends and sends
// every line received, with the sender's address, on the returned channel.
func listen(t *testing.T, host string) (port string, lines <-chan line) {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan line, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				from := c.RemoteAddr().(*net.TCPAddr).IP.String()
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					ch <- line{from, sc.Text()}
				}
			}()
		}
	}()
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return port, ch
}

// send connects from namespace i to host:port and writes text as one line,
// giving up after bound.
func send(nt *netns.Net, i int, bound time.Duration, host, port, text string) error {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	out, err := nt.Command(ctx, i, "bash", "-c", `exec 3<>"/dev/tcp/$1/$2" && echo "$3" >&3`, "bash", host, port, text).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// expect waits until every wanted line has arrived, failing on any line it
// was not told to expect.
func expect(t *testing.T, lines <-chan line, want ...line) {
	t.Helper()
	missing := map[line]bool{}
	for _, w := range want {
		missing[w] = true
	}
	timeout := time.After(waitLine)
	for len(missing) > 0 {
		select {
		case l := <-lines:
			if !missing[l] {
				t.Fatalf("received %q from %s; want only %v", l.text, l.from, want)
			}
			delete(missing, l)
		case <-timeout:
			t.Fatalf("after %v still waiting for %v", waitLine, missing)
		}
	}
}

// nothing fails the test if a line has arrived that no one expected.
func nothing(t *testing.T, lines <-chan line) {
	t.Helper()
	select {
	case l := <-lines:
		t.Fatalf("received %q from %s; want nothing", l.text, l.from)
	default:
	}
}

func TestNamespacesReachOnlyTheHostAddress(t *testing.T) {
	nt := netnstest.ForTest(t, 3)
	port, lines := listen(t, nt.HostIP())
	for i := 1; i <= 3; i++ {
		msg := "hello from " + strconv.Itoa(i)
		if err := send(nt, i, expectedDial, nt.HostIP(), port, msg); err != nil {
			t.Fatalf("namespace %d to %s:%s: %v", i, nt.HostIP(), port, err)
		}
		// The sender's address proves the traffic came through namespace i's eth0.
		expect(t, lines, line{nt.IP(i), msg})
	}

	// The only route is the /24: no default route, nothing leaves it.
	out, err := nt.Command(t.Context(), 1, "ip", "-4", "route").Output()
	if err != nil {
		t.Fatal(err)
	}
	subnet := strings.TrimSuffix(nt.HostIP(), "1") + "0/24"
	if routes := strings.Split(strings.TrimSpace(string(out)), "\n"); len(routes) != 1 || !strings.HasPrefix(routes[0], subnet+" dev eth0 ") {
		t.Errorf("routes in namespace 1:\n%s\nwant only %s on eth0", out, subnet)
	}
	if err := send(nt, 1, expectedDial, "198.51.100.1", "80", "out"); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("namespace 1 to 198.51.100.1: %v; want network unreachable", err)
	}

	// 127.0.0.1 inside a namespace is its own loopback, not the host's.
	loPort, loLines := listen(t, "127.0.0.1")
	if err := send(nt, 2, expectedDial, "127.0.0.1", loPort, "loopback"); err == nil {
		t.Errorf("namespace 2 reached the host's 127.0.0.1:%s", loPort)
	}
	nothing(t, loLines)
}

func TestCommandPidIsTheTarget(t *testing.T) {
	nt := netnstest.ForTest(t, 1)
	cmd := nt.Command(t.Context(), 1, "sh", "-c", "echo $$")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("the shell inside runs as pid %s, the Cmd's process is %d: ip netns exec did not exec in place", got, cmd.Process.Pid)
	}
}

func TestPartitionAndHeal(t *testing.T) {
	nt := netnstest.ForTest(t, 2)
	host := nt.HostIP()
	port, lines := listen(t, host)

	// A connection open across the partition: it sends one line before,
	// and one during, and must deliver that one after the heal.
	holder := nt.Command(t.Context(), 2, "bash", "-c", `exec 3<>"/dev/tcp/$1/$2" && echo before >&3 && read -r _ && echo during >&3`, "bash", host, port)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	expect(t, lines, line{nt.IP(2), "before"})

	if err := nt.Partition(2); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, "go")
	if err := send(nt, 2, failedDial, host, port, "partitioned"); err == nil {
		t.Fatalf("namespace 2 connected to %s while partitioned", host)
	}
	if err := send(nt, 1, expectedDial, host, port, "not partitioned"); err != nil {
		t.Fatalf("namespace 1, not partitioned, to %s: %v", host, err)
	}
	expect(t, lines, line{nt.IP(1), "not partitioned"})
	nothing(t, lines)

	if err := nt.Heal(2); err != nil {
		t.Fatal(err)
	}
	if err := send(nt, 2, expectedDial, host, port, "healed"); err != nil {
		t.Fatalf("namespace 2 after Heal: %v", err)
	}
	expect(t, lines, line{nt.IP(2), "healed"}, line{nt.IP(2), "during"})
	if err := holder.Wait(); err != nil {
		t.Errorf("the connection held across the partition: %v", err)
	}
}

func TestCloseRemovesEverything(t *testing.T) {
	nt := netnstest.ForTest(t, 2)
	// Started just before Close, most are still `ip netns exec` on their
	// way into the namespace when Close looks for them.
	var left []*exec.Cmd
	for k := range 8 {
		c := nt.Command(context.Background(), 1+k%2, "sleep", "600")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		left = append(left, c)
	}
	if err := nt.Close(); err != nil {
		t.Fatal(err)
	}
	// ForTest closes once more when the test ends: Close is idempotent.
	waited := make(chan error, len(left))
	for _, c := range left {
		go func() { waited <- c.Wait() }()
	}
	timeout := time.After(waitLine)
	for range left {
		select {
		case err := <-waited:
			if err == nil || !strings.Contains(err.Error(), "killed") {
				t.Errorf("a process left in a namespace ended with %v; want killed by Close", err)
			}
		case <-timeout:
			for _, c := range left {
				c.Process.Kill()
			}
			t.Fatalf("processes left in the namespaces still run %v after Close", waitLine)
		}
	}
	assertGone(t, netns.Base(nt))
}

// assertGone fails the test if a namespace or link whose name starts with
// base exists.
func assertGone(t *testing.T, base string) {
	t.Helper()
	for _, args := range [][]string{{"netns", "list"}, {"-o", "link", "show"}} {
		out, err := exec.Command("ip", args...).Output()
		if err != nil {
			t.Fatalf("ip %v: %v", args, err)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, base) {
				t.Errorf("left behind (ip %s): %s", strings.Join(args, " "), l)
			}
		}
	}
}

// gone waits, at most waitLine, for process pid to end (a zombie has
// ended): SIGKILL is delivered when the process next runs, not when kill
// returns.
func gone(pid int) bool {
	for deadline := time.Now().Add(waitLine); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 0 && fields[0] == "Z" {
			return true
		}
	}
	return false
}

// The helper processes: a test binary re-run with helperEnv set runs one
// of them. In modes fail and hang, TestHelperProcess creates namespaces,
// starts a process inside, prints what it made, and then fails (fail) or
// waits to be killed (hang). In mode pose, TestMain only waits to be
// killed, its command line posing as an `ip netns exec` on its way in.
const helperEnv = "DBGAUGE_NETNS_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "pose" {
		time.Sleep(time.Minute) // killed long before
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Close must also kill an `ip netns exec` started but not yet inside:
// otherwise it joins after Close looked, and lives on in an unnamed
// namespace. Caught in the act, such a process is one whose command line
// says so and whose namespace is still the root's; the posing helper is
// exactly that, for as long as the test needs.
func TestCloseKillsWhatIsOnItsWayIn(t *testing.T) {
	nt := netnstest.ForTest(t, 1)
	pose := exec.Command(os.Args[0], "netns", "exec", nt.Namespace(1), "sleep", "600")
	pose.Args[0] = "ip"
	pose.Env = append(os.Environ(), helperEnv+"=pose")
	if err := pose.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pose.Process.Kill() })
	if err := nt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pose.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the process on its way into the namespace ended with %v; want killed by Close", err)
	}
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return // not a helper run
	}
	var nt *netns.Net
	if mode == "fail" {
		nt = netnstest.ForTest(t, 2)
	} else {
		var err error
		if nt, err = netns.New("dgs", 2); err != nil {
			t.Fatal(err)
		}
	}
	sleeper := nt.Command(context.Background(), 1, "sleep", "600")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("made %s %d\n", netns.Base(nt), sleeper.Process.Pid)
	if mode == "fail" {
		t.Fatal("failing midway on purpose")
	}
	time.Sleep(time.Minute) // killed long before
}

// helper runs TestHelperProcess in mode in a new process, returns what it
// made once it says so, and the running process.
func helper(t *testing.T, mode string) (base string, sleeper int, cmd *exec.Cmd, done <-chan error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd = exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if _, err := fmt.Sscanf(sc.Text(), "made %s %d", &base, &sleeper); err == nil {
			break
		}
	}
	if base == "" {
		cmd.Wait()
		t.Fatalf("helper %s printed no \"made\" line:\n%s", mode, strings.Join(seen, "\n"))
	}
	ch := make(chan error, 1)
	go func() {
		for sc.Scan() {
		}
		ch <- cmd.Wait()
	}()
	return base, sleeper, cmd, ch
}

func TestFailingTestLeavesNothing(t *testing.T) {
	base, sleeper, _, done := helper(t, "fail")
	var exit *exec.ExitError
	if err := <-done; !errors.As(err, &exit) {
		t.Fatalf("the helper test that fails midway: %v; want it to fail", err)
	}
	assertGone(t, base)
	if !gone(sleeper) {
		t.Errorf("process %d, started in a namespace by the failed test, still runs", sleeper)
	}
}

func TestNewRemovesWhatAKilledRunLeft(t *testing.T) {
	base, sleeper, cmd, done := helper(t, "hang")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	// What the killed run left: its bridge, veths and namespaces.
	out, err := exec.Command("ip", "-o", "link", "show").Output()
	if err != nil || !strings.Contains(string(out), base+"br") {
		t.Fatalf("the killed helper left no bridge %sbr (%v): the test proves nothing", base, err)
	}
	nt, err := netns.New("dgs", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer nt.Close()
	assertGone(t, base)
	if !gone(sleeper) {
		t.Errorf("process %d, left in a namespace by the killed run, still runs", sleeper)
	}
}

// Two Nets made at once (parallel tests, or test binaries side by side)
// must get different names and different /24s: the machine-wide lock.
func TestNetsMadeAtOnceDoNotCollide(t *testing.T) {
	type made struct {
		nt  *netns.Net
		err error
	}
	results := make(chan made, 2)
	for range 2 {
		go func() {
			nt, err := netns.New(netnstest.Prefix, 1)
			results <- made{nt, err}
		}()
	}
	var nets []*netns.Net
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Error(r.err)
			continue
		}
		t.Cleanup(func() { r.nt.Close() })
		nets = append(nets, r.nt)
	}
	if len(nets) < 2 {
		t.FailNow()
	}
	a, b := nets[0], nets[1]
	if a.HostIP() == b.HostIP() || netns.Base(a) == netns.Base(b) {
		t.Fatalf("two Nets share names or addresses: %s %s and %s %s", netns.Base(a), a.HostIP(), netns.Base(b), b.HostIP())
	}
	for _, nt := range []*netns.Net{a, b} {
		port, lines := listen(t, nt.HostIP())
		if err := send(nt, 1, expectedDial, nt.HostIP(), port, "mine"); err != nil {
			t.Fatalf("%s: %v", netns.Base(nt), err)
		}
		expect(t, lines, line{nt.IP(1), "mine"})
	}
}
