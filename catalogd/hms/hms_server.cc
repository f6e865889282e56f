#include "catalogd/hms/hms_server.h"

#include "ThriftHiveMetastore.h"
#include "catalogd/hms/hms_handler.h"
#include "common/rpc/thrift_server.h"

namespace ics::catalog::hms {

HmsServer::HmsServer(ops::CatalogQueries* reads, ops::CommandCore* commands,
                     HmsServerOptions options)
    : opts_(std::move(options)),
      core_(reads, commands, opts_.core),
      handler_(std::make_shared<HmsHandler>(&core_)) {}

HmsServer::~HmsServer() { Stop(); }

Status HmsServer::Start() {
  if (server_ != nullptr) return Status::Internal("HMS endpoint already started");
  const ThriftServerOptions so{opts_, "hms-endpoint", opts_.metrics};
  auto server = std::make_unique<ThriftServer>(
      std::make_shared<hive::ThriftHiveMetastoreProcessor>(handler_), so);
  ICS_RETURN_IF_ERROR(server->Start());
  server_ = std::move(server);
  return Status::OK();
}

void HmsServer::Stop() {
  if (server_ != nullptr) server_->Stop();
}

int HmsServer::port() const { return server_ ? server_->port() : 0; }

}  // namespace ics::catalog::hms
