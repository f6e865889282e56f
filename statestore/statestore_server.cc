#include "statestore/statestore_server.h"

#include "StatestoreService.h"
#include "common/rpc/peer.h"
#include "common/rpc/status_convert.h"

namespace ics::statestore {

namespace {

// Thin Thrift adapter: validate, delegate to Statestore, map the status.
class StatestoreServiceHandler : public impala::StatestoreServiceIf {
 public:
  explicit StatestoreServiceHandler(Statestore* ss) : ss_(ss) {}

  void RegisterSubscriber(impala::TRegisterSubscriberResponse& resp,
                          const impala::TRegisterSubscriberRequest& req) override {
    auto reg = ss_->RegisterSubscriber(req, CurrentPeer().identity);
    resp.status = ToTStatus(reg.status());
    resp.__set_protocol_version(impala::StatestoreServiceVersion::V2);
    resp.__set_statestore_id(ss_->statestore_id());
    if (!reg.ok()) return;
    resp.__set_registration_id(*reg);
    resp.__set_statestore_is_active(ss_->is_active());
    if (ss_->active_version() > 0) resp.__set_active_statestored_version(ss_->active_version());
    if (std::optional<ActiveCatalogd> active = ss_->active_catalogd()) {
      resp.__set_catalogd_registration(active->registration);
      resp.__set_catalogd_version(active->version);
    }
  }

  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest& req) override {
    resp.status = ToTStatus(Status::OK());
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
    resp.__set_statestore_id(ss_->statestore_id());
  }

  void RequestTopicUpdate(impala::TRequestTopicUpdateResponse& resp,
                          const impala::TRequestTopicUpdateRequest& req) override {
    std::map<std::string, int64_t> versions;
    bool unknown = false;
    resp.status =
        ToTStatus(ss_->RequestTopicUpdate(req, CurrentPeer().identity, &versions, &unknown));
    if (unknown) resp.__set_registration_unknown(true);
    if (req.__isset.topic_updates && resp.status.status_code == impala::TErrorCode::OK) {
      resp.__set_topic_versions(std::move(versions));
    }
  }

 private:
  Statestore* const ss_;
};

StatestoreOptions WithTls(const StatestoreServerOptions& o) {
  StatestoreOptions s = o.statestore;
  s.tls = o.security.tls;
  return s;
}

}  // namespace

StatestoreServer::StatestoreServer(StatestoreServerOptions options)
    : options_(std::move(options)),
      statestore_(std::make_unique<Statestore>(WithTls(options_), &metrics_)) {}

StatestoreServer::~StatestoreServer() { Stop(); }

Status StatestoreServer::Start() {
  ICS_RETURN_IF_ERROR(statestore_->Start());
  ThriftServerOptions opts{options_, "statestore", &metrics_};
  opts.max_message_bytes = options_.statestore.max_message_bytes;
  rpc_ = std::make_unique<ThriftServer>(
      std::make_shared<impala::StatestoreServiceProcessor>(
          std::make_shared<StatestoreServiceHandler>(statestore_.get())),
      opts);
  Status s = rpc_->Start();
  if (!s.ok()) statestore_->Shutdown();
  return s;
}

void StatestoreServer::Stop() {
  if (rpc_) rpc_->Stop();
  statestore_->Shutdown();
}

}  // namespace ics::statestore
