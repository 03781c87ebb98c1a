package timing

import (
	"net"
	"os"
	"testing"
)

func TestListenerPIDFindsOwnSocket(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	pid, err := ListenerPID(port)
	if err != nil || pid != os.Getpid() {
		t.Fatalf("ListenerPID(%d) = %d, %v; want this process %d", port, pid, err, os.Getpid())
	}
	l.Close()
	if pid, _ := ListenerPID(port); pid != 0 {
		t.Errorf("closed port %d still found on %d", port, pid)
	}
}

func TestListeningInodes(t *testing.T) {
	content := []byte(`  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   104        0 23456 1 0000000000000000 100 0 0 10 0
   1: 0100007F:0CEA 0100007F:D1A2 01 00000000:00000000 00:00000000 00000000   104        0 23457 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0000000000000000 100 0 0 10 0
`)
	got := listeningInodes(content, 3306)
	if len(got) != 1 || got[0] != "23456" {
		t.Errorf("port 3306: %v, want [23456] (the established connection is not a listener)", got)
	}
	if got := listeningInodes(content, 5432); len(got) != 0 {
		t.Errorf("port 5432: %v, want none", got)
	}
}
