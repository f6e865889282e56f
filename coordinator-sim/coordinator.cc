#include "coordinator-sim/coordinator.h"

#include <algorithm>
#include <chrono>

#include <glog/logging.h>

#include "CatalogService.h"
#include "CatalogService_constants.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/util/unique_id.h"
#include "coordinator-sim/catalog/catalogd_client.h"
#include "coordinator-sim/coordinator_service.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "statestore/subscriber.h"
#include "statestore/subscriber_pair.h"

namespace ics::coord {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

Coordinator::Coordinator(CoordinatorOptions options)
    : opts_(std::move(options)),
      metrics_(std::make_unique<metrics::MetricRegistry>()),
      statements_(std::make_unique<OperationLog>()),
      catalogd_(std::make_shared<CatalogdClient>(
          opts_.catalogd_host, opts_.catalogd_port,
          CatalogdClientOptions(opts_.catalog_rpc_timeout_ms, opts_.security.tls), 8,
          opts_.enable_catalogd_ha ? opts_.catalogd_ha_failover_wait_ms : 0)) {
  if (opts_.use_local_catalog) {
    OnDemandOptions o;
    o.catalogd = catalogd_;
    o.catalogd_host = opts_.catalogd_host;
    o.catalogd_port = opts_.catalogd_port;
    o.cache_bytes = opts_.local_catalog_cache_bytes;
    o.rpc_timeout_ms = opts_.catalog_rpc_timeout_ms;
    o.tls = opts_.security.tls;
    o.topic_format = opts_.topic_format;
    catalog_ = MakeOnDemandCatalog(o);
  } else {
    catalog_ = MakeFullReplicaCatalog(opts_.topic_format);
  }
  executor_ = std::make_unique<StatementExecutor>(this, statements_.get());
  RegisterMetrics();
}

Coordinator::~Coordinator() { Stop(); }

int Coordinator::port() const { return rpc_ ? rpc_->port() : 0; }
int Coordinator::subscriber_port() const {
  return subscribers_ ? subscribers_->first()->port() : 0;
}

Status Coordinator::Start() {
  rpc_ = std::make_unique<ThriftServer>(
      MakeCoordinatorServiceProcessor(executor_.get()),
      ThriftServerOptions{opts_, opts_.id + "-service", metrics_.get()});
  ICS_RETURN_IF_ERROR(rpc_->Start());

  statestore::StatestoreSubscriberOptions sopts;
  sopts.subscriber_id = opts_.id;
  sopts.metrics = metrics_.get();
  sopts.statestore_host = opts_.statestore_host;
  sopts.statestore_port = opts_.statestore_port;
  sopts.bind_host = opts_.bind_host;
  sopts.security = opts_.security;
  sopts.port = opts_.subscriber_port;
  sopts.advertised_host = opts_.hostname;
  sopts.statestore_timeout_ms = opts_.statestore_subscriber_timeout_ms;
  sopts.statestore_probe_after_ms = opts_.statestore_subscriber_probe_ms;
  sopts.subscriber_type = impala::TStatestoreSubscriberType::COORDINATOR;
  if (opts_.enable_catalogd_ha) {
    sopts.subscribe_catalogd_change = true;
    CatalogdClient* catalogd = catalogd_.get();
    sopts.on_catalogd_change = [catalogd](const statestore::CatalogdDesignation& d) {
      catalogd->SetAddress(d.registration.address.hostname, d.registration.address.port,
                           d.version);
    };
  }
  if (opts_.statestore2_port > 0) {
    // Updates from a statestore that lost the role while stopped are
    // skipped, so SYNC_DDL never waits on its numbering.
    sopts.activations = std::make_shared<statestore::StatestoreActivations>();
  }
  subscribers_ = std::make_unique<statestore::SubscriberPair>(sopts, opts_.statestore2_host,
                                                              opts_.statestore2_port);
  statestore::TopicSubscription topic;
  topic.topic = kCatalogTopic;
  topic.is_transient = true;
  topic.populate_min_subscriber_topic_version = true;
  // The minimum is waited for by SYNC_DDL only: pushed when asked for, not
  // after every change all coordinators applied (a second update each).
  topic.min_version_on_request = true;
  topic.filter_prefix = catalog_->topic_prefix();
  ICS_RETURN_IF_ERROR(subscribers_->AddTopic(
      std::move(topic),
      [this](int source, const impala::TTopicDelta& d, std::vector<impala::TTopicDelta>* out) {
        OnTopicUpdate(source, d, out);
      }));
  return subscribers_->Start();
}

void Coordinator::Stop() {
  if (stopped_.exchange(true)) return;
  if (rpc_) rpc_->Stop();
  if (subscribers_) subscribers_->Stop();
  {
    MutexLock l(&mu_);
    topic_cv_.Broadcast();
  }
}

void Coordinator::OnTopicUpdate(int source, const impala::TTopicDelta& delta,
                                std::vector<impala::TTopicDelta>* publications) {
  bool switched = false;
  const std::optional<impala::TUniqueId> statestore = Subscriber(source)->statestore_id();
  {
    MutexLock l(&mu_);
    if (source != topic_source_ || statestore != topic_source_statestore_) {
      // The other statestore took over, or this one restarted: its topic
      // versions are its own.
      topic_source_ = source;
      topic_source_statestore_ = statestore;
      topic_version_of_.clear();
      switched = true;
    }
  }
  // The local catalog decodes the entries; it reports the CATALOG object's
  // service id and version, which SYNC_DDL waits on.
  const TopicProgress progress = catalog_->OnTopicUpdate(delta, publications);
  if (!progress.has_catalog) return;
  bool advanced = false;
  {
    MutexLock l(&mu_);
    if (progress.service_id != topic_service_id_) {
      topic_service_id_ = progress.service_id;
      topic_catalog_version_ = 0;
      topic_version_of_.clear();
    }
    if (!catalog_ready_ && progress.catalog_version > 0) {
      catalog_ready_ = true;
      LOG(INFO) << opts_.id << ": catalog ready at catalog version " << progress.catalog_version;
    }
    if (progress.catalog_version > topic_catalog_version_ || switched) {
      advanced = progress.catalog_version > topic_catalog_version_;
      topic_catalog_version_ = std::max(topic_catalog_version_, progress.catalog_version);
      if (delta.__isset.to_version &&
          (topic_version_of_.empty() || progress.catalog_version > topic_version_of_.back().first)) {
        topic_version_of_.emplace_back(progress.catalog_version, delta.to_version);
      }
      // Keep it small: SYNC_DDL only asks about recent versions.
      while (topic_version_of_.size() > kMaxTopicVersions) topic_version_of_.pop_front();
    }
    topic_cv_.Broadcast();
  }
  if (advanced && opts_.on_topic_catalog_version) {
    opts_.on_topic_catalog_version(progress.catalog_version);
  }
}

int64_t Coordinator::topic_catalog_version() const {
  MutexLock l(&mu_);
  return topic_catalog_version_;
}

bool Coordinator::catalog_ready() const {
  MutexLock l(&mu_);
  return catalog_ready_;
}

Status Coordinator::WaitForCatalogReady() {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(opts_.wait_for_catalog_timeout_ms);
  MutexLock l(&mu_);
  while (!catalog_ready_ && !stopped_) {
    if (!topic_cv_.WaitUntil(&mu_, deadline)) break;
  }
  if (catalog_ready_) return Status::OK();
  const auto waited =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  return Status(ErrorCode::kRecoverableError,
                "Catalog not ready: coordinator " + opts_.id +
                    " has not received its first catalog update from the statestore yet "
                    "(waited " + std::to_string(waited) + " ms of " +
                    std::to_string(opts_.wait_for_catalog_timeout_ms) +
                    "); the statement was not run, retry later");
}

CoordinatorState Coordinator::State() const {
  CoordinatorState s;
  s.id = opts_.id;
  s.on_demand = opts_.use_local_catalog;
  s.local_catalog_version = catalog_->catalog_version();
  if (auto sid = catalog_->service_id()) s.catalog_service_id = PrintId(*sid);
  {
    MutexLock l(&mu_);
    s.topic_catalog_version = topic_catalog_version_;
    s.catalog_ready = catalog_ready_;
  }
  int source = 0;
  {
    MutexLock l(&mu_);
    source = topic_source_;
  }
  if (statestore::StatestoreSubscriber* sub = Subscriber(source)) {
    s.topic_version = sub->last_topic_version(kCatalogTopic);
    s.min_subscriber_topic_version = sub->min_subscriber_topic_version(kCatalogTopic);
    s.registered = sub->is_registered();
    s.registrations = sub->num_registrations();
    if (auto rid = sub->registration_id()) s.registration_id = PrintId(*rid);
  }
  return s;
}

Status Coordinator::WaitForSyncDdl(int64_t v, const impala::TUniqueId& service_id) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(opts_.sync_ddl_timeout_ms);
  impala::TUniqueId target = service_id;  // the catalogd whose version `v` is
  impala::TUniqueId seen_at_start;
  {
    MutexLock l(&mu_);
    seen_at_start = topic_service_id_;
  }
  // In slices, so that a statestore failover mid-wait moves the wait to the
  // new active statestore (and its numbering of topic versions).
  while (true) {
    int64_t topic_version = 0;
    int source = 0;
    {
      MutexLock l(&mu_);
      const auto reached = [&] {
        mu_.AssertHeld();
        // Another catalogd than the one that answered (and than the one the
        // topic showed before): its whole catalog postdates the change.
        if (topic_service_id_ != target && topic_service_id_ != seen_at_start) {
          target = topic_service_id_;
          v = 1;
        }
        return topic_service_id_ == target && topic_catalog_version_ >= v;
      };
      while (!reached() && !stopped_) {
        if (!topic_cv_.WaitUntil(&mu_, deadline) && !reached()) {
          return Status::TimedOut(
              "SYNC_DDL timed out after " + std::to_string(opts_.sync_ddl_timeout_ms) +
              " ms waiting for catalog version " + std::to_string(v) +
              " to reach this coordinator (it has " + std::to_string(topic_catalog_version_) + ")");
        }
      }
      if (stopped_) return Status::Shutdown("coordinator stopped");
      const impala::TUniqueId sid = topic_service_id_;
      // The first delta that carried version v or a later one. None (the
      // statestore changed and has not sent a delta that carried the
      // catalog's version yet): wait for one.
      while (topic_version_of_.empty() && topic_service_id_ == sid && !stopped_) {
        if (!topic_cv_.WaitUntil(&mu_, deadline) && topic_version_of_.empty()) {
          return Status::TimedOut("SYNC_DDL timed out after " +
                                  std::to_string(opts_.sync_ddl_timeout_ms) +
                                  " ms waiting for an update from the new active statestore");
        }
      }
      auto it = std::lower_bound(topic_version_of_.begin(), topic_version_of_.end(), v,
                                 [](const std::pair<int64_t, int64_t>& e, int64_t version) {
                                   return e.first < version;
                                 });
      if (it == topic_version_of_.end()) return Status::OK();
      topic_version = it->second;
      source = topic_source_;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    const auto slice =
        subscribers_->second() != nullptr ? std::min(left, std::chrono::milliseconds(200)) : left;
    Status s = Subscriber(source)->WaitForMinSubscriberTopicVersion(
        kCatalogTopic, topic_version, std::max(slice, std::chrono::milliseconds(1)));
    if (s.Is(ErrorCode::kTimedOut) && Clock::now() < deadline) continue;
    if (s.Is(ErrorCode::kTimedOut)) {
      return Status::TimedOut("SYNC_DDL timed out after " +
                              std::to_string(opts_.sync_ddl_timeout_ms) +
                              " ms waiting for every coordinator to process topic version " +
                              std::to_string(topic_version));
    }
    return s;
  }
}

void Coordinator::ExpectSyncDdl(bool sync_ddl) {
  if (!sync_ddl) return;
  int source = 0;
  {
    MutexLock l(&mu_);
    source = topic_source_;
  }
  if (statestore::StatestoreSubscriber* sub = Subscriber(source)) sub->ExpectMinWait(kCatalogTopic);
}

Result<impala::TCatalogUpdateResult> Coordinator::Finish(impala::TCatalogUpdateResult result,
                                                         bool sync_ddl, std::string* warning) {
  Status st = FromTStatus(result.status);
  if (!st.ok()) return st;
  catalog_->ApplyUpdateResult(result);
  if (!sync_ddl || result.is_invalidate) return result;
  st = WaitForSyncDdl(result.version, result.catalog_service_id);
  if (st.Is(ErrorCode::kTimedOut)) {
    // The change is committed: failing the statement now would tell the
    // client it did not happen.
    *warning = "WARNING: the change is committed, but not every coordinator confirmed it in "
               "time (" + st.message() + ")";
    LOG(WARNING) << opts_.id << ": " << *warning;
    return result;
  }
  ICS_RETURN_IF_ERROR(st);
  return result;
}

namespace {
// The status a catalogd reply carries, for CatalogdClient::CallActive.
Status ResultStatus(const impala::TCatalogUpdateResult& r) { return FromTStatus(r.status); }

// An on-demand catalog only invalidates what a request touched, so it asks
// for the small form of every result (DDL, REFRESH/INVALIDATE, INSERT), as
// Impala's local-catalog coordinators do: catalogd then never renders a
// whole table (every partition and file) only for it to be dropped here.
impala::TCatalogServiceRequestHeader Header(const std::string& coordinator, bool minimal) {
  impala::TCatalogServiceRequestHeader h;
  h.__set_requesting_user("ics");
  h.__set_coordinator_hostname(coordinator);
  if (minimal) h.__set_want_minimal_response(true);
  return h;
}
}  // namespace

Result<impala::TDdlExecResponse> Coordinator::ExecDdl(impala::TDdlExecRequest req,
                                                      bool sync_ddl) {
  req.protocol_version = impala::CatalogServiceVersion::V2;
  req.__set_header(Header(opts_.id, opts_.use_local_catalog));
  // Exactly once: catalogd records this id with the change, so a repeat
  // after a lost reply (catalogd killed or replaced mid-call) is answered
  // without being carried out again.
  req.header.__set_request_id(GenerateUniqueId());
  req.query_options.sync_ddl = sync_ddl;
  impala::TDdlExecResponse resp;
  ExpectSyncDdl(sync_ddl);
  int attempts = 0;
  ICS_RETURN_IF_ERROR(catalogd_->CallActive(
      "ExecDdl", CatalogdRetry::kRetryOnStaleConnection,
      [&](impala::CatalogServiceClient& c) {
        if (attempts++ > 0) req.header.__set_request_repeated(true);
        c.ExecDdl(resp, req);
      },
      [&] { return ResultStatus(resp.result); }));
  std::string warning;
  ICS_ASSIGN_OR_RETURN(resp.result, Finish(std::move(resp.result), sync_ddl, &warning));
  if (!warning.empty()) {
    impala::TColumnValue v;
    v.__set_string_val(warning);
    impala::TResultRow row;
    row.colVals.push_back(std::move(v));
    resp.__isset.result_set = true;
    resp.result_set.rows.push_back(std::move(row));
  }
  return resp;
}

Result<impala::TCatalogUpdateResult> Coordinator::UpdateCatalog(impala::TUpdateCatalogRequest req,
                                                                bool sync_ddl) {
  req.protocol_version = impala::CatalogServiceVersion::V2;
  req.__set_header(Header(opts_.id, opts_.use_local_catalog));
  req.sync_ddl = sync_ddl;
  impala::TUpdateCatalogResponse resp;
  ExpectSyncDdl(sync_ddl);
  ICS_RETURN_IF_ERROR(catalogd_->CallActive(
      "UpdateCatalog", CatalogdRetry::kRetryOnStaleConnection,  // re-lists: repeatable
      [&](impala::CatalogServiceClient& c) { c.UpdateCatalog(resp, req); },
      [&] { return ResultStatus(resp.result); }));
  std::string warning;  // logged by Finish; these results carry no messages
  return Finish(std::move(resp.result), sync_ddl, &warning);
}

Result<impala::TCatalogUpdateResult> Coordinator::ResetMetadata(impala::TResetMetadataRequest req,
                                                                bool sync_ddl) {
  req.protocol_version = impala::CatalogServiceVersion::V2;
  req.__set_header(Header(opts_.id, opts_.use_local_catalog));
  req.sync_ddl = sync_ddl;
  impala::TResetMetadataResponse resp;
  ExpectSyncDdl(sync_ddl);
  ICS_RETURN_IF_ERROR(catalogd_->CallActive(
      "ResetMetadata", CatalogdRetry::kRetryOnStaleConnection,  // repeatable
      [&](impala::CatalogServiceClient& c) { c.ResetMetadata(resp, req); },
      [&] { return ResultStatus(resp.result); }));
  std::string warning;  // logged by Finish; these results carry no messages
  return Finish(std::move(resp.result), sync_ddl, &warning);
}

}  // namespace ics::coord
