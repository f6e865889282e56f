#include "catalogd/metastore/sqlite_checkpointer.h"

#include <sqlite3.h>

#include <glog/logging.h>

#include "catalogd/metastore/sqlite_db.h"
#include "catalogd/metastore/sqlite_schema.h"

namespace ics::catalog::sqlite {

namespace {
constexpr int kOpenBusyTimeoutMs = 10000;  // for opening; a PASSIVE checkpoint never waits
}  // namespace

Result<std::unique_ptr<WalCheckpointer>> WalCheckpointer::Start(const std::string& path,
                                                                sqlite3* watched,
                                                                int threshold_pages) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<Connection> own, Connection::Open(path, kOpenBusyTimeoutMs));
  // The metastore's settings: WAL (a connection learns the file is in WAL
  // mode when it first reads it; until then a checkpoint does nothing) and
  // synchronous = FULL, so the WAL is synced before it is copied back and
  // the database after.
  ICS_RETURN_IF_ERROR(ConfigureConnection(own.get()));
  // Its own checkpoints only: this connection never commits.
  ICS_RETURN_IF_ERROR(own->Exec("PRAGMA wal_autocheckpoint = 0"));
  std::unique_ptr<WalCheckpointer> c(new WalCheckpointer(std::move(own), threshold_pages));
  c->thread_ = std::thread([p = c.get()] { p->Loop(); });
  sqlite3_wal_hook(watched, &WalCheckpointer::OnCommit, c.get());
  return c;
}

WalCheckpointer::WalCheckpointer(std::unique_ptr<Connection> own, int threshold_pages)
    : own_(std::move(own)), threshold_pages_(std::max(1, threshold_pages)) {}

WalCheckpointer::~WalCheckpointer() {
  {
    MutexLock l(&mu_);
    stopping_ = true;
    cv_.Signal();
  }
  if (thread_.joinable()) thread_.join();
}

int WalCheckpointer::OnCommit(void* self, sqlite3*, const char*, int wal_pages) {
  auto* c = static_cast<WalCheckpointer*>(self);
  if (wal_pages < c->threshold_pages_) return SQLITE_OK;
  MutexLock l(&c->mu_);
  if (!c->requested_) {
    c->requested_ = true;
    c->cv_.Signal();
  }
  return SQLITE_OK;
}

Result<bool> WalCheckpointer::CheckpointOnce() {
  // One row: busy (1 when it could not finish), WAL frames, frames copied.
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt ckpt, own_->Prepare("PRAGMA wal_checkpoint(PASSIVE)"));
  ICS_ASSIGN_OR_RETURN(bool row, ckpt.Step());
  if (!row) return Status::IoError("PRAGMA wal_checkpoint returned no row");
  return ckpt.Int(0) == 0 && ckpt.Int(2) >= ckpt.Int(1);
}

void WalCheckpointer::Loop() {
  while (true) {
    {
      MutexLock l(&mu_);
      while (!requested_ && !stopping_) cv_.Wait(&mu_);
      if (stopping_) return;
      requested_ = false;
    }
    const Result<bool> complete = CheckpointOnce();
    checkpoints_.fetch_add(1);
    if (complete.ok() && *complete) continue;
    incomplete_.fetch_add(1);
    if (!complete.ok()) {
      LOG_EVERY_N(WARNING, 100) << "WAL checkpoint of metastore '" << own_->name()
                                << "' failed: " << complete.status().ToString()
                                << "; the WAL keeps growing until one succeeds";
    }
  }
}

}  // namespace ics::catalog::sqlite
