// Package taskstats is a client of the Linux taskstats interface (generic
// netlink family "TASKSTATS", include/uapi/linux/taskstats.h), built on
// github.com/mdlayher/genetlink.
//
// It does two things for the timing protocol (docs/ttp.md):
//
//   - Client asks for the statistics of a live task (TASKSTATS_CMD_ATTR_PID,
//     one thread) or a live thread group (TASKSTATS_CMD_ATTR_TGID, one
//     process, summed by the kernel over its live threads). CPU times come in
//     microseconds and delays in nanoseconds, finer than /proc's ticks.
//
//   - Listener receives the statistics of every task that exits while it is
//     registered, so that a process that starts and ends between the two
//     snapshots of a query execution is still accounted for.
//
// # Why the listener registers every possible CPU
//
// The kernel keeps one list of exit listeners per CPU and sends a task's
// exit record only to the listeners of the CPU on which that task ran its
// last instructions (taskstats_exit uses the current CPU's list). A listener
// registered for CPU 0 alone, as AZDBLab's monitor was, therefore misses every
// process that happens to exit on any other CPU: on a 2-core machine about
// half of them, silently. Listen registers the mask read from
// /sys/devices/system/cpu/possible (not "online"), so that a CPU brought
// online later is covered too; the kernel refuses a mask that is not a
// subset of the possible CPUs.
//
// # What an exit record holds
//
// Each exiting task (thread) produces one TASKSTATS_TYPE_AGGR_PID record with
// its full statistics; the task that ends its process has AGROUP in its flag
// (Stats.GroupExit). When a multi-threaded process ends, the same message
// also carries a TASKSTATS_TYPE_AGGR_TGID record, but the kernel fills that
// one only with the delay-accounting sums of the threads (its version field
// is even left 0): the CPU time of an exited multi-threaded process is the
// sum of its threads' AGGR_PID records, not its AGGR_TGID record.
//
// Every operation needs CAP_NET_ADMIN (the family's commands are
// GENL_ADMIN_PERM), and the listener additionally needs the initial pid and
// user namespaces. Open and Listen say so with ErrNotPermitted, and
// ErrUnavailable when the kernel has no taskstats family.
package taskstats
