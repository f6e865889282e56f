// /operations: running and recent catalog operations from the DDL
// operation log (CatalogContext::operations).
#include <chrono>

#include "catalogd/web/catalog_pages.h"
#include "common/util/operation_log_json.h"

namespace ics::catalog {

namespace {

using Json = nlohmann::ordered_json;

Status OperationsPage(const CatalogPagesDeps& deps, const web::WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, web_internal::ParseLimit(req));
  if (deps.operations == nullptr) {
    return Status::NotFound("this catalogd has no operation log");
  }
  *doc = ics::OperationLogJson(deps.operations->Get(), limit, deps.operations->capacity());
  return Status::OK();
}

}  // namespace

namespace web_internal {

void RegisterOperationsPage(web::WebServer* server, const CatalogPagesDeps& deps) {
  web::PageOptions opts;
  opts.params = {"limit"};
  server->RegisterPage(
      "/operations", "Operations",
      [deps](const web::WebRequest& req, Json* doc) { return OperationsPage(deps, req, doc); },
      std::move(opts));
}

}  // namespace web_internal

}  // namespace ics::catalog
