// The wire objects of a DDL outcome, rendered for the CatalogService reply
// (TCatalogUpdateResult.updated_catalog_objects / removed_catalog_objects).
//
// Created or altered objects are sent whole (what a full-replica coordinator
// applies), or, when the caller asked for want_minimal_response (on-demand
// coordinators), as invalidations: type, names and catalog version only.
// Removed objects are always invalidations at the outcome's version. Only
// the form asked for is built. A minimal result of a partition-only change
// (DdlOutcome::partition_delta) also names the partitions it added (updated)
// and removed, at the table's new version, and sets base_catalog_version on
// the table's invalidation.
//
// Thread-safety: stateless.
#pragma once

#include <vector>

#include "CatalogObjects_types.h"
#include "catalogd/ddl/ddl_executor.h"

namespace ics::catalog {

struct OutcomeObjects {
  std::vector<impala::TCatalogObject> updated;  // databases, tables, functions
  std::vector<impala::TCatalogObject> removed;
};

OutcomeObjects RenderOutcome(const DdlOutcome& outcome, bool minimal);

}  // namespace ics::catalog
