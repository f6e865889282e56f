#include "coordinator-sim/coordinator_service.h"

#include <chrono>

#include "CoordinatorService.h"
#include "common/rpc/status_convert.h"
#include "coordinator-sim/exec/statement_executor.h"

namespace ics::coord {

namespace {

class Handler : public ics::thrift::CoordinatorServiceIf {
 public:
  explicit Handler(StatementExecutor* exec) : exec_(exec) {}

  void ExecuteStatement(ics::thrift::TExecuteStatementResponse& resp,
                        const ics::thrift::TExecuteStatementRequest& req) override {
    const auto start = std::chrono::steady_clock::now();
    SessionState session;
    if (req.__isset.default_db && !req.default_db.empty()) session.db = req.default_db;
    if (req.__isset.query_options) session.options = req.query_options;
    auto r = exec_->Execute(req.statement, &session);
    resp.status = ToTStatus(r.status());
    if (r.ok()) {
      StatementResult& out = r.value();
      if (!out.columns.empty()) {
        resp.__set_column_names(std::move(out.columns));
        resp.__set_rows(std::move(out.rows));
      }
      resp.__set_messages(std::move(out.messages));
    }
    resp.__set_default_db(session.db);
    resp.__set_query_options(session.options);
    resp.__set_elapsed_us(std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }

 private:
  StatementExecutor* const exec_;
};

}  // namespace

std::shared_ptr<apache::thrift::TProcessor> MakeCoordinatorServiceProcessor(
    StatementExecutor* executor) {
  return std::make_shared<ics::thrift::CoordinatorServiceProcessor>(
      std::make_shared<Handler>(executor));
}

}  // namespace ics::coord
