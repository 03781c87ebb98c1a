package orders

// The clients' counts of their inputs (workload.Counter), in
// Session.Counts: what the audit of clause 9.2 compares with the spec's
// distributions, summed over every client and agent.
const (
	cntRollbacks          = iota // New-Orders rolled back on their unused item
	cntLines                     // order lines of the New-Orders run
	cntRemoteLines               // of them, supplied by a remote warehouse
	cntRemotePayments            // Payments by a customer of another warehouse
	cntPaymentsByName            // Payments selecting the customer by last name
	cntStatusByName              // Order-Status selecting the customer by last name
	cntDeliveredDistricts        // districts a Delivery delivered an order of
	cntSkippedDeliveries         // districts a Delivery found without a new order
	numCounts
)

var countNames = [numCounts]string{"rollbacks", "order lines", "remote order lines", "remote payments",
	"payments by last name", "order-status by last name", "delivered districts", "skipped deliveries"}

// CountNames names the clients' counts (workload.Counter).
func (w *Workload) CountNames() []string { return countNames[:] }
