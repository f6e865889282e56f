#include "catalogd/service/catalog_server.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include <glog/logging.h>

#include "CatalogService.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/core/catalog_names.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/events/event_processor.h"
#include "catalogd/events/self_event_log.h"
#include "catalogd/hms/hms_server.h"
#include "catalogd/loader/confined_file_system.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/mds/metastore_service_server.h"
#include "catalogd/metastore/fenced_metastore.h"
#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/metastore/request_recording_metastore.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/service/catalog_service_handler.h"
#include "catalogd/service/catalogd_role.h"
#include "catalogd/web/catalog_metrics.h"
#include "catalogd/web/timed_metastore.h"
#include "common/rpc/thrift_server.h"
#include "common/util/ascii.h"
#include "common/util/unique_id.h"
#include "statestore/subscriber.h"
#include "statestore/subscriber_pair.h"

namespace ics::catalog {

CatalogServer::CatalogServer(CatalogServerOptions options)
    : opts_(std::move(options)),
      metrics_(std::make_unique<metrics::MetricRegistry>()),
      catalog_metrics_(std::make_unique<CatalogMetrics>(metrics_.get())),
      operations_(std::make_unique<OperationLog>()) {
  if (opts_.warehouse_dir.empty()) opts_.warehouse_dir = opts_.data_dir + "/warehouse";
  if (opts_.metastore.empty()) opts_.metastore = "sqlite:" + opts_.data_dir + "/metastore.db";
}

CatalogServer::~CatalogServer() { Stop(); }

int CatalogServer::port() const { return rpc_ ? rpc_->port() : 0; }
int CatalogServer::hms_port() const { return hms_ ? hms_->port() : 0; }
int CatalogServer::subscriber_port() const { return subscribers_ ? subscribers_->first()->port() : 0; }
int CatalogServer::metastore_service_port() const { return mds_ ? mds_->port() : 0; }

Status CatalogServer::EnsureDefaultDatabase() {
  ICS_ASSIGN_OR_RETURN(auto dbs, metastore_->GetAllDatabases());
  if (std::find(dbs.begin(), dbs.end(), "default") != dbs.end()) return Status::OK();
  // Like a Hive Metastore, a new metastore starts with the `default`
  // database, whose tables live directly under the warehouse root.
  MetastoreOp op = MetastoreOp::CreateDatabase("", hive::Database());
  op.database.name = "default";
  op.database.description = "Default Hive database";
  op.database.locationUri = opts_.warehouse_dir;
  op.database.__set_ownerName("public");
  op.database.__set_ownerType(hive::PrincipalType::ROLE);
  MetastoreTxn txn;
  txn.ops.push_back(std::move(op));
  auto r = metastore_->Commit(txn);
  if (!r.ok() && !r.status().Is(ErrorCode::kAlreadyExists)) return r.status();
  return Status::OK();
}

Status CatalogServer::LoadNamesFromMetastore() {
  ICS_RETURN_IF_ERROR(EnsureDefaultDatabase());
  ICS_ASSIGN_OR_RETURN(ChangeSet cs, CatalogNamesOf(metastore_.get()));
  const size_t num_dbs = cs.put_databases.size();
  const size_t num_tables = cs.put_tables.size();
  std::vector<std::pair<std::string, std::string>> all_tables;
  for (const auto& t : cs.put_tables) all_tables.emplace_back(t->db, t->name);
  const int64_t v = catalog_->ResetAll(std::move(cs));
  LOG(INFO) << "catalog " << PrintId(catalog_->service_id()) << " loaded " << num_dbs
            << " database(s) and " << num_tables << " table name(s) at version " << v;
  if (opts_.load_in_background) loads_->Prioritize(all_tables);
  return Status::OK();
}

// The data and warehouse directories, the audit log, the metastore (timed,
// fenced under HA) and the file system.
Status CatalogServer::OpenStorage() {
  std::error_code ec;
  std::filesystem::create_directories(opts_.data_dir, ec);
  if (ec) return Status::IoError("cannot create data dir " + opts_.data_dir + ": " + ec.message());
  std::filesystem::create_directories(opts_.warehouse_dir, ec);
  if (ec) {
    return Status::IoError("cannot create warehouse dir " + opts_.warehouse_dir + ": " +
                           ec.message());
  }
  if (!opts_.audit.dir.empty()) {
    ICS_ASSIGN_OR_RETURN(audit_, AuditLog::Open(opts_.audit));
    LOG(INFO) << "audit log: " << audit_->current_file();
  }
  // sqlite:<path> (embedded) or thrift://host:port (a remote Hive Metastore).
  ICS_ASSIGN_OR_RETURN(auto opened, OpenMetastoreFromUri(opts_.metastore, opts_.security.tls));
  // Every metastore call is timed for /metrics.
  metastore_ = std::make_unique<TimedMetastore>(std::move(opened), metrics_.get());
  if (opts_.enable_catalogd_ha) {
    if (opts_.statestore_port < 0 || opts_.hms_event_polling_interval_ms <= 0) {
      return Status::InvalidArgument(
          "catalogd HA needs the statestore (--state_store_port >= 0) and event processing "
          "(--hms_event_polling_interval_s or _ms > 0), which keeps the standby current");
    }
    Result<WriterEpoch> epoch = metastore_->ReadWriterEpoch();
    if (!epoch.ok()) {
      return epoch.status().WithContext(
          "catalogd HA needs a metastore with writer epochs "
          "(sqlite: or postgresql:), shared by both catalogds");
    }
    fence_ = std::make_unique<FencedMetastore>(metastore_.get());
  }
  if (opts_.synthetic_files) {
    fs_ = std::make_unique<SyntheticFileSystem>();
  } else {
    std::vector<std::string> roots = opts_.data_roots;
    if (roots.empty()) roots.push_back(opts_.warehouse_dir);
    ICS_ASSIGN_OR_RETURN(fs_, ConfinedFileSystem::Create(std::make_unique<LocalFileSystem>(),
                                                         std::move(roots)));
  }
  return Status::OK();
}

// The catalog and what keeps it: loaders, publisher, context (with the
// decorators of catalogd's own commits), executor, fetcher, event processor
// (started after the names are loaded) and retention.
Status CatalogServer::BuildCatalog() {
  catalog_ = std::make_unique<Catalog>();
  LoaderOptions lopts;
  lopts.num_threads = opts_.num_loading_threads > 0
                          ? opts_.num_loading_threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  loader_ = std::make_unique<TableLoader>(metastore_.get(), fs_.get(), lopts,
                                          catalog_->partition_id_allocator());
  loads_ = std::make_unique<TableLoadManager>(catalog_.get(), loader_.get(),
                                              opts_.load_in_background ? lopts.num_threads : 1);
  publisher_ = std::make_unique<CatalogTopicPublisher>(catalog_.get(), opts_.publisher);
  ctx_ = std::make_unique<CatalogContext>();
  ctx_->catalog = catalog_.get();
  // Event ids of catalogd's own commits are recorded by this decorator so
  // the event processor does not apply them again. Every door's changes go
  // through ctx_ (the command core); the processor reads metastore_ itself
  // and applies what other processes wrote.
  self_events_ = std::make_unique<SelfEventLog>();
  // Under HA, catalogd's own commits are fenced by its writer epoch.
  Metastore* own_writes = fence_ != nullptr ? static_cast<Metastore*>(fence_.get())
                                            : static_cast<Metastore*>(metastore_.get());
  // Requests that carry an id are recorded with their change (exactly once).
  request_log_ = std::make_unique<RequestRecordingMetastore>(own_writes);
  ddl_metastore_ = std::make_unique<SelfRecordingMetastore>(request_log_.get(), self_events_.get());
  ctx_->metastore = ddl_metastore_.get();
  ctx_->fs = fs_.get();
  ctx_->loader = loader_.get();
  ctx_->loads = loads_.get();
  ctx_->publisher = publisher_.get();
  ctx_->operations = operations_.get();
  CatalogMetrics* cm = catalog_metrics_.get();
  AuditLog* audit = audit_.get();
  operations_->SetFinishCallback([cm, audit](const OperationRecord& op) {
    cm->RecordOperation(op);
    if (audit != nullptr) audit->Record(op);
  });
  catalog_metrics_->AddAuditCounters(audit);
  catalog_metrics_->AddStateGauges(catalog_.get(), publisher_.get(), operations_.get());
  ctx_->warehouse_dir = opts_.warehouse_dir;
  ddl_ = std::make_unique<DdlExecutor>(ctx_.get());
  fetcher_ = std::make_unique<PartialFetcher>(ctx_.get(), opts_.fetch);
  EventProcessorOptions eopts;
  eopts.poll_interval_ms = opts_.hms_event_polling_interval_ms;
  eopts.batch_size = opts_.hms_event_batch_size;
  // Events deleted before they were applied: a global INVALIDATE METADATA,
  // as Impala does (event_processor.h, "Lost events").
  DdlExecutor* ddl = ddl_.get();
  eopts.invalidate_all = [ddl]() -> Status {
    ResetCommand all;
    all.kind = ResetCommand::Kind::kInvalidateAll;
    return ddl->Reset(all).status();
  };
  events_ = std::make_unique<EventProcessor>(ctx_.get(), self_events_.get(), eopts);
  // Events up to here are reflected by the load that follows (which would
  // create `default`: done first so its event is not in the processor's way).
  ICS_RETURN_IF_ERROR(EnsureDefaultDatabase());
  ICS_ASSIGN_OR_RETURN(int64_t start_event_id, metastore_->CurrentNotificationEventId());
  ICS_RETURN_IF_ERROR(LoadNamesFromMetastore());
  ICS_RETURN_IF_ERROR(events_->Start(start_event_id));
  MetastoreRetentionOptions retention = opts_.retention;
  EventProcessor* processor = events_.get();
  retention.protected_event_id = [processor]() -> int64_t {
    const EventProcessorStatus s = processor->GetStatus();
    return s.state == EventProcessorState::kDisabled ? -1 : s.last_synced_event_id;
  };
  retention_ = std::make_unique<MetastoreRetention>(metastore_.get(), std::move(retention));
  retention_->Start();
  return Status::OK();
}

// catalogd HA: the role (started once the RPC server is bound) and its gauges.
void CatalogServer::CreateRole() {
  if (opts_.enable_catalogd_ha) {
    CatalogdRoleDeps rd;
    rd.metastore = metastore_.get();
    rd.fence = fence_.get();
    rd.events = events_.get();
    rd.publisher = publisher_.get();
    rd.catchup_timeout = std::chrono::milliseconds(opts_.catalogd_ha_catchup_timeout_ms);
    // Started once the RPC server is bound (port 0 picks a port), before
    // the subscriber can hear a designation.
    role_ = std::make_unique<CatalogdRole>(std::move(rd));
    const CatalogdRole* role = role_.get();
    auto info = [role](double (*field)(const CatalogdRoleInfo&)) {
      return [role, field] { return field(role->Info()); };
    };
    metrics_->AddCallbackGauge(
        "catalogd_ha_active", "1 while this catalogd is the active one",
        info([](const CatalogdRoleInfo& i) { return i.active ? 1.0 : 0.0; }));
    metrics_->AddCallbackGauge(
        "catalogd_ha_designation_version", "The newest designation this catalogd heard",
        info([](const CatalogdRoleInfo& i) { return double(i.designation_version); }));
    metrics_->AddCallbackGauge("catalogd_ha_writer_epoch",
                               "The metastore writer epoch this catalogd holds (0: none)",
                               info([](const CatalogdRoleInfo& i) { return double(i.epoch); }));
    metrics_->AddCallbackCounter(
        "catalogd_ha_takeovers_total", "Times this catalogd became the active one",
        info([](const CatalogdRoleInfo& i) { return double(i.takeovers); }));
  }
}

// The command core and every door on it: CatalogService, the HMS endpoint,
// the metastore services.
Status CatalogServer::StartDoors() {
  // Every door's changes go through the command core; under HA only the
  // active catalogd is admitted.
  const CatalogdRole* admitting_role = role_.get();
  core_ = std::make_unique<ops::CommandCore>(
      ctx_.get(), ddl_.get(),
      admitting_role == nullptr
          ? std::function<Status()>()
          : std::function<Status()>([admitting_role] { return admitting_role->CheckActive(); }));
  queries_ = std::make_unique<ops::CatalogQueries>(metastore_.get());

  rpc_ =
      std::make_unique<ThriftServer>(MakeCatalogServiceProcessor(HandlerDeps{
                                         ctx_.get(), core_.get(), fetcher_.get(),
                                         opts_.sync_ddl_timeout_ms, events_.get(), role_.get()}),
                                     ThriftServerOptions{opts_, "catalog-service", metrics_.get()});
  ICS_RETURN_IF_ERROR(rpc_->Start());
  if (opts_.hms_port >= 0) {
    hms::HmsServerOptions hopts;
    static_cast<EndpointOptions&>(hopts) = OnPort(opts_, opts_.hms_port);
    hopts.metrics = metrics_.get();
    hopts.core.warehouse_dir = opts_.warehouse_dir;
    hopts.core.catalog_name = AsciiLower(opts_.hms_catalog_name);
    hms_ = std::make_unique<hms::HmsServer>(queries_.get(), core_.get(), hopts);
    ICS_RETURN_IF_ERROR(hms_->Start());
  }
  if (opts_.metastore_service_port >= 0) {
    MetastoreServiceOptions mopts;
    static_cast<EndpointOptions&>(mopts) = OnPort(opts_, opts_.metastore_service_port);
    mopts.metrics = metrics_.get();
    mopts.write_streams_max_staged_bytes = opts_.metastore_write_streams_max_staged_bytes;
    mopts.write_streams_max_open = opts_.metastore_write_streams_max_open;
    mds_ = std::make_unique<MetastoreServiceServer>(mopts);
    ICS_RETURN_IF_ERROR(
        mds_->AddBuiltinServices(MetastoreServiceDeps{ctx_.get(), core_.get(), queries_.get()}));
    ICS_RETURN_IF_ERROR(mds_->Start());
  }
  return Status::OK();
}

// The HA role's start, the statestore subscriber(s), the catalog topic and
// how changes reach the statestore (pushes or update requests).
Status CatalogServer::StartSubscription() {
  CatalogMetrics* cm = catalog_metrics_.get();
  if (role_ != nullptr) {
    const std::string self = opts_.hostname + ":" + std::to_string(port());
    role_->Start(self,
                 "catalogd@" + self + " (service id " + PrintId(catalog_->service_id()) + ")");
  }
  if (opts_.statestore_port >= 0) {
    statestore::StatestoreSubscriberOptions sopts;
    sopts.subscriber_id = "catalog-server@" + opts_.hostname + ":" + std::to_string(port());
    sopts.statestore_host = opts_.statestore_host;
    sopts.statestore_port = opts_.statestore_port;
    sopts.bind_host = opts_.bind_host;
    sopts.security = opts_.security;
    sopts.port = opts_.subscriber_port;
    sopts.advertised_host = opts_.hostname;
    sopts.subscriber_type = impala::TStatestoreSubscriberType::CATALOGD;
    sopts.statestore_timeout_ms = opts_.statestore_subscriber_timeout_ms;
    sopts.statestore_probe_after_ms = opts_.statestore_subscriber_probe_ms;
    sopts.max_message_bytes = opts_.max_message_bytes;
    sopts.metrics = metrics_.get();
    impala::TCatalogRegistration reg;
    reg.protocol = impala::CatalogServiceVersion::V2;
    reg.address.hostname = opts_.hostname;
    reg.address.port = port();
    if (role_ != nullptr) {
      reg.__set_enable_catalogd_ha(true);
      reg.__set_force_catalogd_active(opts_.force_catalogd_active);
      // The statestore prefers the catalogd that started first.
      reg.__set_registration_time(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
      sopts.subscribe_catalogd_change = true;
      CatalogdRole* role = role_.get();
      sopts.on_catalogd_change = [role](const statestore::CatalogdDesignation& d) {
        role->OnDesignation(d);
      };
      fence_->SetOnFenced([role](const Status& why) { role->OnFenced(why); });
    }
    sopts.catalogd_registration = reg;
    if (opts_.statestore2_port > 0) {
      // Updates from a statestore that lost the role while stopped are
      // skipped; when the active statestore changes, the whole topic is
      // published again: the new active's topic may lack what went to the
      // other one (or hold an old state of it).
      sopts.activations = std::make_shared<statestore::StatestoreActivations>([this](int64_t) {
        if (publisher_ != nullptr) publisher_->RequestFullResend();
        if (subscribers_ != nullptr) subscribers_->RequestTopicUpdate();
      });
    }
    // statestored HA: registered with both; only the active one sends
    // updates, so the topic callback runs for one of them at a time.
    subscribers_ = std::make_unique<statestore::SubscriberPair>(sopts, opts_.statestore2_host,
                                                                opts_.statestore2_port);
    statestore::TopicSubscription topic;
    topic.topic = kCatalogTopic;
    topic.is_transient = false;
    topic.filter_prefix = "!";  // publish only; receive no entries back
    CatalogTopicPublisher* pub = publisher_.get();
    const CatalogdRole* role = role_.get();
    auto callback = [pub, cm, role](int, const impala::TTopicDelta& delta,
                                    std::vector<impala::TTopicDelta>* out) {
      // A standby publishes nothing; it publishes in full once it takes over.
      if (role != nullptr && !role->is_active()) return;
      const auto start = std::chrono::steady_clock::now();
      const size_t first = out->size();
      pub->OnTopicUpdate(delta, out);
      cm->RecordPublication(*out, first, start);
    };
    topic.on_reply_lost = [pub] { pub->OnPublicationLost(); };
    ICS_RETURN_IF_ERROR(subscribers_->AddTopic(std::move(topic), callback));
    ICS_RETURN_IF_ERROR(subscribers_->Start());
    // Every installed change asks the statestore(s) to collect it right away
    // (a standby statestore ignores the request).
    statestore::SubscriberPair* subs = subscribers_.get();
    statestore::StatestoreSubscriber* sub = subs->first();
    statestore::StatestoreSubscriber* sub2 = subs->second();
    auto request = [subs] { subs->RequestTopicUpdate(); };
    if (opts_.push_topic_updates) {
      // Each installed change is pushed at once (topic_pusher.h); the reply
      // path stays for full resends and whenever a push is not possible.
      // With two statestores, the standby refuses the push and the other
      // takes it.
      auto push = [sub, sub2, cm](std::vector<impala::TTopicDelta> deltas,
                                  std::chrono::steady_clock::time_point build_start) -> Status {
        cm->RecordPublication(deltas, 0, build_start);  // built, whether or not it is taken
        if (sub2 == nullptr) return sub->Publish(std::move(deltas)).status();
        const int64_t newest = sub->options().activations->newest();
        if (newest > 0) {
          // Only to the statestore of the latest activation: one that was
          // stopped while the other took over may still take a push, and
          // what it takes would never reach the coordinators.
          statestore::StatestoreSubscriber* to =
              sub->statestore_activation() == newest    ? sub
              : sub2->statestore_activation() == newest ? sub2
                                                         : nullptr;
          if (to == nullptr) {
            return Status(ErrorCode::kRecoverableError, "no statestore holds the latest activation");
          }
          return to->Publish(std::move(deltas)).status();
        }
        auto first = sub->Publish(deltas);  // a copy: sub2 may need them
        return first.ok() ? Status::OK() : sub2->Publish(std::move(deltas)).status();
      };
      auto may_push = [role] { return role == nullptr || role->is_active(); };
      pusher_ = std::make_unique<TopicPusher>(publisher_.get(), std::move(push), request,
                                              std::move(may_push));
      pusher_->Start();
      TopicPusher* pusher = pusher_.get();
      catalog_->SetChangeListener([pusher](int64_t) { pusher->Notify(); });
    } else {
      catalog_->SetChangeListener([request](int64_t) { request(); });
    }
    if (role_ != nullptr) role_->SetTopicUpdateRequester(request);
  }
  return Status::OK();
}

Status CatalogServer::Start() {
  // The composition root: storage, the catalog over it, the HA role, the
  // doors (all on the command core), then the statestore subscription.
  ICS_RETURN_IF_ERROR(OpenStorage());
  ICS_RETURN_IF_ERROR(BuildCatalog());
  CreateRole();
  ICS_RETURN_IF_ERROR(StartDoors());
  ICS_RETURN_IF_ERROR(StartSubscription());
  LOG(INFO) << "catalogd serving CatalogService on " << opts_.bind_host << ":" << port()
            << ", metastore " << opts_.metastore << ", warehouse " << opts_.warehouse_dir;
  return Status::OK();
}

void CatalogServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (role_) role_->Stop();            // before the processor its takeover waits for
  if (retention_) retention_->Stop();  // before the processor it protects
  if (events_) events_->Stop();
  if (catalog_) catalog_->SetChangeListener(nullptr);
  if (pusher_) pusher_->Stop();  // it calls the subscribers
  if (subscribers_) subscribers_->Stop();
  if (mds_) mds_->Stop();
  if (hms_) hms_->Stop();
  if (rpc_) rpc_->Stop();
  if (loads_) loads_->Shutdown();
}

}  // namespace ics::catalog
