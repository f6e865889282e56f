// The catalog's starting point: every database (with its metastore
// object), every table by name only (loaded on first use) and every
// function of the metastore, as one change set for Catalog::ResetAll. Used
// at catalogd's start and by whatever else builds a catalog over a
// metastore.
//
// Thread-safety: as thread-safe as the metastore.
#pragma once

#include "catalogd/catalog/catalog.h"
#include "catalogd/metastore/metastore.h"
#include "common/util/result.h"

namespace ics::catalog {

Result<ChangeSet> CatalogNamesOf(Metastore* metastore);

}  // namespace ics::catalog
