// The DDL tests' metastore for ddl_remote_test: the remote Hive Metastore
// backend (--metastore=thrift://...) talking to an HMS endpoint served in
// process over its own SQLite file, so every DDL test also runs with the
// catalog's metastore behind the Hive Metastore Thrift API.
#include "catalogd/metastore/hms_remote_metastore.h"
#include "tests/ddl/ddl_test_util.h"
#include "tests/hms/remote_test_util.h"

namespace ics::catalog::testing {
namespace {

class RemoteBackend final : public DdlTestBackend {
 public:
  explicit RemoteBackend(const std::string& dir) : hms_(dir) {}

  Status Open() {
    ICS_RETURN_IF_ERROR(hms_.Start());
    ICS_ASSIGN_OR_RETURN(remote_, OpenRemoteMetastore(hms_.ClientOptions()));
    return Status::OK();
  }
  Metastore* metastore() override { return remote_.get(); }

 private:
  InProcessHms hms_;  // destroyed after the client
  std::unique_ptr<HmsRemoteMetastore> remote_;
};

}  // namespace

Result<std::unique_ptr<DdlTestBackend>> OpenDdlTestBackend(const std::string& dir) {
  auto backend = std::make_unique<RemoteBackend>(dir);
  ICS_RETURN_IF_ERROR(backend->Open());
  return std::unique_ptr<DdlTestBackend>(std::move(backend));
}

}  // namespace ics::catalog::testing
