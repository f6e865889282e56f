// CoordinatorBackend: what statement execution needs from its coordinator —
// the local catalog and the catalog operations that go to catalogd.
//
// The catalog operations fill in protocol version and request header, call
// catalogd, apply the returned TCatalogUpdateResult to the local catalog at
// once, and with sync_ddl wait as the peer does: until this coordinator has
// seen the result's catalog version on the topic, and then until every
// subscriber has processed that topic version (min_subscriber_topic_version)
// — or the catalog service id changed. A catalogd error comes back as the
// Status of its TStatus.
//
// Thread-safety: implementations are thread-safe.
#pragma once

#include <string>

#include "CatalogService_types.h"
#include "common/util/result.h"
#include "coordinator-sim/catalog/local_catalog.h"

namespace ics::coord {

class CoordinatorBackend {
 public:
  virtual ~CoordinatorBackend() = default;

  virtual LocalCatalog* catalog() = 0;
  // Where INSERT writes data files is decided by partition locations; this
  // is only the coordinator's name, used in file names.
  virtual const std::string& coordinator_id() const = 0;

  // The whole response: result plus the one-line summary result set.
  virtual Result<impala::TDdlExecResponse> ExecDdl(impala::TDdlExecRequest req,
                                                   bool sync_ddl) = 0;
  virtual Result<impala::TCatalogUpdateResult> UpdateCatalog(impala::TUpdateCatalogRequest req,
                                                             bool sync_ddl) = 0;
  virtual Result<impala::TCatalogUpdateResult> ResetMetadata(impala::TResetMetadataRequest req,
                                                             bool sync_ddl) = 0;
};

}  // namespace ics::coord
