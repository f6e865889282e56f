// PartitionPtr: how catalog states hold partitions.
//
// A PartitionState is shared by every table version, index and answer that
// holds it; its reference count lives in the partition (IntrusiveCount),
// so a holder is one pointer and a partition one allocation. New
// partitions come from NewPartition (table_state.h), are built through a
// MutablePartitionPtr, and are never changed once a PartitionPtr to them
// is published.
//
// Thread-safety: as boost::intrusive_ptr (a pointer object is not safe to
// write while another thread reads it; copies may be used anywhere).
#pragma once

#include <boost/smart_ptr/intrusive_ptr.hpp>

namespace ics::catalog {

struct PartitionState;

using PartitionPtr = boost::intrusive_ptr<const PartitionState>;
using MutablePartitionPtr = boost::intrusive_ptr<PartitionState>;

// The hooks boost::intrusive_ptr finds by argument-dependent lookup.
void intrusive_ptr_add_ref(const PartitionState* p);
void intrusive_ptr_release(const PartitionState* p);

}  // namespace ics::catalog
