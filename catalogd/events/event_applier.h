// EventApplier: applies a batch of external notification events (in event
// id order) to the catalog, through the steps of catalog_sync.h.
//
// Events that only change the content of a table (ALTER_TABLE that is not
// a rename, ADD/ALTER/DROP_PARTITION, table and partition column-stat
// events) are gathered per table and applied together: one metastore read
// and one catalog version per table for a run of such events. The run ends
// at the next event that changes which objects exist (database, table
// create/drop/rename, function events), which is applied on its own after
// the gathered work.
//
// A message that cannot be decoded (not JSON, missing names, an object that
// does not parse) is skipped and counted as an error; an event type it does
// not know invalidates the named table (or is counted as an error if it
// names none). A failing step is logged and counted, invalidates the table
// where there is one, and never stops the batch.
//
// Thread-safety: thread-safe (stateless beyond the context); the processor
// calls it from one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/core/catalog_context.h"
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

struct ApplyStats {
  int64_t applied = 0;        // events applied (including those that changed nothing)
  int64_t invalidations = 0;  // tables invalidated because an event could not be applied
  int64_t errors = 0;         // corrupt events and failed steps
  int64_t versions = 0;       // catalog versions installed
  std::string last_error;     // the latest error, with its event id

  void Add(const ApplyStats& o);
};

class EventApplier {
 public:
  explicit EventApplier(CatalogContext* ctx) : ctx_(ctx) {}

  ApplyStats Apply(const std::vector<NotificationEvent>& events);

 private:
  CatalogContext* const ctx_;
};

}  // namespace ics::catalog
