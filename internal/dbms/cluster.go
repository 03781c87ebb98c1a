package dbms

// ClusterDescriber is an engine that says in a few words what its Cluster
// does ("the InnoDB primary key"), for records that name the organisation
// of a relation (the multiuser experiment's). Without it the caller says
// "<engine>'s Cluster".
type ClusterDescriber interface {
	ClusteredHow() string
}
