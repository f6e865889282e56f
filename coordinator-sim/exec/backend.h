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

  // Called before a statement runs. OK once the local catalog has applied its
  // first catalog topic update (catalogd's objects); until then it waits up to
  // the coordinator's bound and answers RECOVERABLE_ERROR "Catalog not ready"
  // — the statement must not run, because the first full update would replace
  // whatever it changed locally. The default (a backend without a topic) is
  // always ready.
  [[nodiscard]] virtual Status WaitForCatalogReady() { return Status::OK(); }
};

}  // namespace ics::coord
