package health

import (
	"math"
	"sort"
)

// leaderStatus is client-go's leader election gauge, by lease name: 1 while the process leads
// the lease, 0 while it stands by. This file is the only reader of it.
const leaderStatus = "leader_election_master_status" // {name}

// Role is what a process is to leader election.
type Role string

// The roles of a process.
const (
	// RoleUnknown: the page has no leader_election_master_status (a controller-runtime
	// standby exports none; a process without leader election neither).
	RoleUnknown Role = ""
	// RoleLeader: the process leads at least one of the leases it reports.
	RoleLeader Role = "leader"
	// RoleStandby: the process reports leases and leads none of them.
	RoleStandby Role = "standby"
)

// Leadership is the one reading of a process's leader_election_master_status, which every
// command makes the same way. A process may take part in several elections (one lease per
// manager or component it runs); the rule is: it is the leader when it leads any of its
// leases, since it then runs the controllers that lease guards and its queues are live; a
// standby when it reports leases and leads none; unknown when it reports none.
type Leadership struct {
	Role Role
	// Leads are the leases the process leads, Stands the ones it stands by for; sorted.
	Leads, Stands []string
}

// Leadership reads the snapshot's leader_election_master_status (see Leadership for the
// rule). A nil snapshot is unknown.
func (s *Snapshot) Leadership() Leadership {
	var l Leadership
	if s == nil {
		return l
	}
	for lease, v := range s.Leader {
		switch {
		case math.IsNaN(v):
			continue // not a reading (a series of another type)
		case v == 1:
			l.Leads = append(l.Leads, lease)
		default:
			l.Stands = append(l.Stands, lease)
		}
	}
	sort.Strings(l.Leads)
	sort.Strings(l.Stands)
	switch {
	case len(l.Leads) > 0:
		l.Role = RoleLeader
	case len(l.Stands) > 0:
		l.Role = RoleStandby
	}
	return l
}

// Status is the role as a gauge: 1 leader, 0 standby, NaN unknown.
func (l Leadership) Status() float64 {
	switch l.Role {
	case RoleLeader:
		return 1
	case RoleStandby:
		return 0
	}
	return math.NaN()
}

// addLeaderSeries files one series of leader_election_master_status by its lease name.
func (s *Snapshot) addLeaderSeries(name string, l map[string]string, v float64) {
	if name != leaderStatus {
		return
	}
	if s.Leader == nil {
		s.Leader = map[string]float64{}
	}
	s.Leader[l["name"]] = v
}
