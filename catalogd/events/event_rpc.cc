#include "catalogd/events/event_rpc.h"

#include <chrono>
#include <optional>

#include "catalogd/catalog/catalog.h"
#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/events/event_processor.h"
#include "common/hive/names.h"
#include "common/rpc/status_convert.h"

namespace ics::catalog {

namespace {

Status NoProcessor() {
  return Status::NotImplemented("this catalogd runs no HMS event processor");
}

Status RunAction(EventProcessor* p, const impala::TEventProcessorCmdParams& params) {
  const std::string action = AsciiLower(params.action);
  if (action == "pause") return p->Pause();
  if (action == "start") {
    std::optional<int64_t> from;
    if (params.__isset.event_id) from = params.event_id;
    return p->Resume(from);
  }
  if (action == "status") return Status::OK();
  return Status::InvalidArgument("unknown event processor action '" + params.action +
                                 "': expected pause, start or status");
}

}  // namespace

impala::TSetEventProcessorStatusResponse SetEventProcessorStatusRpc(
    EventProcessor* processor, const impala::TSetEventProcessorStatusRequest& req) {
  impala::TSetEventProcessorStatusResponse resp;
  if (processor == nullptr) {
    resp.status = ToTStatus(NoProcessor());
    return resp;
  }
  resp.status = ToTStatus(RunAction(processor, req.params));
  resp.__set_info("EventProcessor " + processor->GetStatus().ToString());
  return resp;
}

impala::TWaitForHmsEventResponse WaitForHmsEventRpc(EventProcessor* processor, Catalog* catalog,
                                                    const impala::TWaitForHmsEventRequest& req) {
  impala::TWaitForHmsEventResponse resp;
  if (processor == nullptr) {
    resp.status = ToTStatus(NoProcessor());
    return resp;
  }
  if (req.timeout_s <= 0) {
    resp.status = ToTStatus(Status::InvalidArgument(
        "WaitForHmsEvent needs timeout_s > 0, got " + std::to_string(req.timeout_s)));
    return resp;
  }
  Result<int64_t> version = processor->WaitForSync(std::chrono::seconds(req.timeout_s));
  resp.status = ToTStatus(version.status());
  if (!version.ok()) return resp;

  impala::TCatalogUpdateResult result;
  result.catalog_service_id = catalog->service_id();
  result.version = *version;
  result.is_invalidate = false;
  result.status = resp.status;
  std::vector<impala::TCatalogObject> updated, removed;
  for (const impala::TCatalogObject& desc : req.object_descs) {
    if (desc.type == impala::TCatalogObjectType::DATABASE && desc.__isset.db) {
      const std::string db = AsciiLower(desc.db.db_name);
      if (DatabasePtr d = catalog->GetDatabase(db)) {
        updated.push_back(DatabaseInvalidation(db, d->version));
      } else {
        removed.push_back(DatabaseInvalidation(db, *version));
      }
    } else if (desc.type == impala::TCatalogObjectType::TABLE && desc.__isset.table) {
      const std::string db = AsciiLower(desc.table.db_name);
      const std::string name = AsciiLower(desc.table.tbl_name);
      if (TablePtr t = catalog->GetTable(db, name)) {
        updated.push_back(TableInvalidation(*t, t->version));
      } else {
        TableState gone;
        gone.db = db;
        gone.name = name;
        removed.push_back(TableInvalidation(gone, *version));
      }
    }
  }
  result.__set_updated_catalog_objects(std::move(updated));
  result.__set_removed_catalog_objects(std::move(removed));
  resp.__set_result(std::move(result));
  return resp;
}

}  // namespace ics::catalog
