#include "catalogd/metastore/sqlite_checkpointer.h"

#include <sqlite3.h>

#include <glog/logging.h>

#include "catalogd/metastore/sqlite_db.h"

namespace ics::catalog::sqlite {

Result<std::unique_ptr<WalCheckpointer>> WalCheckpointer::Start(const std::string& path,
                                                                sqlite3* watched,
                                                                int threshold_pages) {
  sqlite3* own = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &own, flags, nullptr);
  if (rc != SQLITE_OK) {
    Status s = SqliteStatus(rc, own != nullptr ? sqlite3_errmsg(own) : sqlite3_errstr(rc),
                            "cannot open metastore database '" + path + "' for checkpoints");
    sqlite3_close(own);
    return s;
  }
  sqlite3_extended_result_codes(own, 1);
  sqlite3_busy_timeout(own, 10000);  // for opening; a PASSIVE checkpoint never waits
  // Its own checkpoints only: this connection never commits.
  sqlite3_wal_autocheckpoint(own, 0);
  // Syncs the WAL before copying it back and the database after (FULL),
  // whatever the library's default. And a connection learns the file is in
  // WAL mode when it first reads it; until then a checkpoint does nothing
  // (and says -1 frames).
  std::string mode;
  char* err = nullptr;
  const int prc = sqlite3_exec(
      own, "PRAGMA synchronous = FULL; PRAGMA journal_mode",
      [](void* out, int n, char** vals, char**) {
        if (n > 0 && vals[0] != nullptr) *static_cast<std::string*>(out) = vals[0];
        return 0;
      },
      &mode, &err);
  sqlite3_free(err);
  if (prc != SQLITE_OK || mode != "wal") {
    sqlite3_close(own);
    return Status::IoError("metastore database '" + path +
                           "' is not in WAL mode; checkpoints have nothing to do (mode '" + mode +
                           "')");
  }
  std::unique_ptr<WalCheckpointer> c(new WalCheckpointer(own, path, threshold_pages));
  c->thread_ = std::thread([p = c.get()] { p->Loop(); });
  sqlite3_wal_hook(watched, &WalCheckpointer::OnCommit, c.get());
  return c;
}

WalCheckpointer::WalCheckpointer(sqlite3* own, std::string path, int threshold_pages)
    : own_(own), path_(std::move(path)), threshold_pages_(std::max(1, threshold_pages)) {}

WalCheckpointer::~WalCheckpointer() {
  {
    MutexLock l(&mu_);
    stopping_ = true;
    cv_.Signal();
  }
  if (thread_.joinable()) thread_.join();
  const int rc = sqlite3_close(own_);
  if (rc != SQLITE_OK) {
    LOG(WARNING) << "closing the checkpoint connection of '" << path_ << "': " << sqlite3_errstr(rc);
  }
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

void WalCheckpointer::Loop() {
  while (true) {
    {
      MutexLock l(&mu_);
      while (!requested_ && !stopping_) cv_.Wait(&mu_);
      if (stopping_) return;
      requested_ = false;
    }
    int log_frames = 0;
    int done_frames = 0;
    const int rc = sqlite3_wal_checkpoint_v2(own_, nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                             &log_frames, &done_frames);
    checkpoints_.fetch_add(1);
    if (rc != SQLITE_OK || done_frames < log_frames) {
      incomplete_.fetch_add(1);
      if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED) {
        LOG_EVERY_N(WARNING, 100) << "WAL checkpoint of metastore '" << path_
                                  << "' failed: " << sqlite3_errmsg(own_)
                                  << "; the WAL keeps growing until one succeeds";
      }
    }
  }
}

}  // namespace ics::catalog::sqlite
