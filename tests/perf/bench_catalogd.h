// BenchCatalogd: catalogd assembled for benchmarks from the same parts and
// in the same way as CatalogServer::Start (catalogd/service/catalog_server.cc)
// — SQLite metastore, Catalog, TableLoader, TableLoadManager, topic
// publisher, DdlExecutor, PartialFetcher, the CatalogService handler on a
// ThriftServer and the catalog-update subscription — with one difference:
// the SyntheticFileSystem is configurable (files per directory), which
// CatalogServerOptions does not offer (it has only synthetic_files = 10
// files per directory). Keep it in step with CatalogServer::Start.
//
// Lifecycle: construct, Start(), Stop() (idempotent; also the destructor).
// Thread-safety: Start/Stop from one thread; accessors from any thread.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "CatalogService.h"
#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/service/catalog_service_handler.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/rpc/thrift_server.h"
#include "statestore/subscriber.h"

namespace ics::perf {

struct BenchCatalogdOptions {
  std::string metastore_path;  // an existing or new SQLite metastore file
  catalog::SyntheticFileSystemOptions files;
  int statestore_port = -1;  // < 0: no statestore
  catalog::PublisherOptions publisher;
  int num_loading_threads = 4;
  int64_t max_message_bytes = 1ll << 30;
};

class BenchCatalogd {
 public:
  explicit BenchCatalogd(BenchCatalogdOptions o) : opts_(std::move(o)) {}
  ~BenchCatalogd() { Stop(); }

  Status Start() {
    ICS_ASSIGN_OR_RETURN(metastore_, catalog::OpenSqliteMetastore(opts_.metastore_path));
    fs_ = std::make_unique<catalog::SyntheticFileSystem>(opts_.files);
    catalog_ = std::make_unique<catalog::Catalog>();
    catalog::LoaderOptions lo;
    lo.num_threads = std::max(1, opts_.num_loading_threads);
    loader_ = std::make_unique<catalog::TableLoader>(metastore_.get(), fs_.get(), lo,
                                                     catalog_->partition_id_allocator());
    loads_ = std::make_unique<catalog::TableLoadManager>(catalog_.get(), loader_.get(),
                                                         lo.num_threads);
    publisher_ = std::make_unique<catalog::CatalogTopicPublisher>(catalog_.get(), opts_.publisher);
    ctx_.catalog = catalog_.get();
    ctx_.metastore = metastore_.get();
    ctx_.fs = fs_.get();
    ctx_.loader = loader_.get();
    ctx_.loads = loads_.get();
    ctx_.publisher = publisher_.get();
    ctx_.warehouse_dir = "/warehouse";
    ddl_ = std::make_unique<catalog::DdlExecutor>(&ctx_);
    core_ = std::make_unique<catalog::ops::CommandCore>(&ctx_, ddl_.get());
    fetcher_ = std::make_unique<catalog::PartialFetcher>(&ctx_, catalog::PartialFetchOptions{});
    ICS_RETURN_IF_ERROR(InstallNames());

    ThriftServerOptions ro;
    ro.name = "bench-catalog-service";
    ro.bind_host = "127.0.0.1";
    ro.port = 0;
    ro.max_message_bytes = opts_.max_message_bytes;
    rpc_ = std::make_unique<ThriftServer>(
        catalog::MakeCatalogServiceProcessor(
            catalog::HandlerDeps{&ctx_, core_.get(), fetcher_.get(), 60000}),
        ro);
    ICS_RETURN_IF_ERROR(rpc_->Start());

    if (opts_.statestore_port >= 0) {
      statestore::StatestoreSubscriberOptions so;
      so.subscriber_id = "catalog-server@127.0.0.1:" + std::to_string(rpc_->port());
      so.statestore_port = opts_.statestore_port;
      so.bind_host = "127.0.0.1";
      so.port = 0;
      so.advertised_host = "127.0.0.1";
      so.subscriber_type = impala::TStatestoreSubscriberType::CATALOGD;
      so.max_message_bytes = opts_.max_message_bytes;
      impala::TCatalogRegistration reg;
      reg.protocol = impala::CatalogServiceVersion::V2;
      reg.address.hostname = "127.0.0.1";
      reg.address.port = rpc_->port();
      so.catalogd_registration = reg;
      subscriber_ = std::make_unique<statestore::StatestoreSubscriber>(so);
      statestore::TopicSubscription topic;
      topic.topic = ics::kCatalogTopic;
      topic.is_transient = false;
      topic.filter_prefix = "!";
      catalog::CatalogTopicPublisher* pub = publisher_.get();
      topic.callback = [pub](const impala::TTopicDelta& d, std::vector<impala::TTopicDelta>* out) {
        pub->OnTopicUpdate(d, out);
      };
      topic.on_reply_lost = [pub] { pub->OnPublicationLost(); };
      ICS_RETURN_IF_ERROR(subscriber_->AddTopic(std::move(topic)));
      ICS_RETURN_IF_ERROR(subscriber_->Start());
      statestore::StatestoreSubscriber* sub = subscriber_.get();
      catalog_->SetChangeListener([sub](int64_t) { sub->RequestTopicUpdate(); });
    }
    return Status::OK();
  }

  void Stop() {
    if (stopped_) return;
    stopped_ = true;
    if (catalog_) catalog_->SetChangeListener(nullptr);
    if (subscriber_) subscriber_->Stop();
    if (rpc_) rpc_->Stop();
    if (loads_) loads_->Shutdown();
  }

  int port() const { return rpc_ ? rpc_->port() : 0; }
  catalog::Catalog* catalog() { return catalog_.get(); }
  catalog::CatalogTopicPublisher* publisher() { return publisher_.get(); }
  catalog::TableLoadManager* loads() { return loads_.get(); }
  const std::vector<std::pair<std::string, std::string>>& tables() const { return tables_; }

 private:
  // As CatalogServer::LoadNamesFromMetastore: every table installed unloaded.
  Status InstallNames() {
    catalog::ChangeSet cs;
    ICS_ASSIGN_OR_RETURN(auto dbs, metastore_->GetAllDatabases());
    for (const std::string& db : dbs) {
      ICS_ASSIGN_OR_RETURN(auto hms_db, metastore_->GetDatabase(db));
      auto d = std::make_shared<catalog::DatabaseState>();
      d->name = db;
      d->hms = std::move(hms_db);
      cs.put_databases.push_back(std::move(d));
      ICS_ASSIGN_OR_RETURN(auto tables, metastore_->GetAllTables(db));
      for (const std::string& t : tables) {
        cs.put_tables.push_back(catalog::MakeUnloadedTable(db, t));
        tables_.emplace_back(db, t);
      }
    }
    catalog_->ResetAll(std::move(cs));
    return Status::OK();
  }

  const BenchCatalogdOptions opts_;
  std::unique_ptr<catalog::Metastore> metastore_;
  std::unique_ptr<catalog::FileSystem> fs_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<catalog::TableLoader> loader_;
  std::unique_ptr<catalog::TableLoadManager> loads_;
  std::unique_ptr<catalog::CatalogTopicPublisher> publisher_;
  catalog::CatalogContext ctx_;
  std::unique_ptr<catalog::DdlExecutor> ddl_;
  std::unique_ptr<catalog::ops::CommandCore> core_;
  std::unique_ptr<catalog::PartialFetcher> fetcher_;
  std::unique_ptr<ThriftServer> rpc_;
  std::unique_ptr<statestore::StatestoreSubscriber> subscriber_;
  std::vector<std::pair<std::string, std::string>> tables_;
  bool stopped_ = false;
};

}  // namespace ics::perf
