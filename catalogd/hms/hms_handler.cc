#include "catalogd/hms/hms_handler.h"

#include "catalogd/hms/hms_handler_internal.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::hms {

using namespace handler_internal;  // NOLINT: the handler's own helpers

// ---- configuration ----

void HmsHandler::getMetaConf(std::string& _return, const std::string& key) {
  Guard("getMetaConf", Ex::kMeta, [&] { _return = Get(core_->config().GetMetaConf(key), kPlain); });
}

void HmsHandler::get_config_value(std::string& _return, const std::string& name,
                                  const std::string& defaultValue) {
  Guard("get_config_value", Ex::kApp, [&] {
    _return = Get(core_->config().GetConfigValue(name, defaultValue),
                  Errs{Ex::kApp, Ex::kApp, Ex::kConfigSecurity, Ex::kApp});
  });
}

// ---- databases ----

void HmsHandler::create_database(const hive::Database& database) {
  Changed(core_, "create_database", database.name, [&] {
    Check(core_->objects().CreateDatabase(database),
          Errs{Ex::kMeta, Ex::kAlreadyExists, Ex::kInvalidObject});
  });
}

void HmsHandler::get_database(hive::Database& _return, const std::string& name) {
  Guard("get_database", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetDatabase(name), kLookup); });
}

void HmsHandler::drop_database(const std::string& name, bool deleteData, bool cascade) {
  Changed(core_, "drop_database", name, [&] {
    Check(core_->objects().DropDatabase(name, deleteData, cascade),
          Errs{Ex::kNoSuchObject, Ex::kMeta, Ex::kInvalidOperation});
  });
}

void HmsHandler::get_databases(std::vector<std::string>& _return, const std::string& pattern) {
  Guard("get_databases", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetDatabases(pattern), kPlain); });
}

void HmsHandler::get_all_databases(std::vector<std::string>& _return) {
  Guard("get_all_databases", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetDatabases(""), kPlain); });
}

void HmsHandler::alter_database(const std::string& dbname, const hive::Database& db) {
  Changed(core_, "alter_database", dbname,
          [&] { Check(core_->objects().AlterDatabase(dbname, db), kLookup); });
}

// ---- tables ----

void HmsHandler::create_table(const hive::Table& tbl) {
  Changed(core_, "create_table", tbl.dbName + "." + tbl.tableName,
          [&] { Check(core_->objects().CreateTable(tbl), kCreate); });
}

void HmsHandler::create_table_with_environment_context(const hive::Table& tbl,
                                                       const hive::EnvironmentContext&) {
  Changed(core_, "create_table_with_environment_context", tbl.dbName + "." + tbl.tableName,
          [&] { Check(core_->objects().CreateTable(tbl), kCreate); });
}

void HmsHandler::drop_table(const std::string& dbname, const std::string& name, bool deleteData) {
  Changed(core_, "drop_table", dbname + "." + name,
          [&] { Check(core_->objects().DropTable(dbname, name, deleteData), kLookup); });
}

void HmsHandler::drop_table_with_environment_context(const std::string& dbname,
                                                     const std::string& name, bool deleteData,
                                                     const hive::EnvironmentContext&) {
  Changed(core_, "drop_table_with_environment_context", dbname + "." + name,
          [&] { Check(core_->objects().DropTable(dbname, name, deleteData), kLookup); });
}

void HmsHandler::get_tables(std::vector<std::string>& _return, const std::string& db_name,
                            const std::string& pattern) {
  Guard("get_tables", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetTables(db_name, pattern), kPlain); });
}

void HmsHandler::get_table_meta(std::vector<hive::TableMeta>& _return,
                                const std::string& db_patterns, const std::string& tbl_patterns,
                                const std::vector<std::string>& tbl_types) {
  Guard("get_table_meta", Ex::kMeta, [&] {
    _return = Get(core_->objects().GetTableMeta(db_patterns, tbl_patterns, tbl_types), kPlain);
  });
}

void HmsHandler::get_all_tables(std::vector<std::string>& _return, const std::string& db_name) {
  Guard("get_all_tables", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetTables(db_name, ""), kPlain); });
}

void HmsHandler::get_table(hive::Table& _return, const std::string& dbname,
                           const std::string& tbl_name) {
  Guard("get_table", Ex::kMeta,
        [&] { _return = Get(core_->objects().GetTable(dbname, tbl_name), kLookup); });
}

void HmsHandler::get_table_objects_by_name(std::vector<hive::Table>& _return,
                                           const std::string& dbname,
                                           const std::vector<std::string>& tbl_names) {
  Guard("get_table_objects_by_name", Ex::kMeta, [&] {
    _return = Get(core_->objects().GetTablesByName(dbname, tbl_names),
                  Errs{Ex::kUnknownDB, Ex::kMeta, Ex::kInvalidOperation});
  });
}

void HmsHandler::alter_table(const std::string& dbname, const std::string& tbl_name,
                             const hive::Table& new_tbl) {
  Changed(core_, "alter_table", dbname + "." + tbl_name,
          [&] { Check(core_->objects().AlterTable(dbname, tbl_name, new_tbl), kAlter); });
}

void HmsHandler::alter_table_with_environment_context(const std::string& dbname,
                                                      const std::string& tbl_name,
                                                      const hive::Table& new_tbl,
                                                      const hive::EnvironmentContext&) {
  Changed(core_, "alter_table_with_environment_context", dbname + "." + tbl_name,
          [&] { Check(core_->objects().AlterTable(dbname, tbl_name, new_tbl), kAlter); });
}

// ---- functions ----

void HmsHandler::create_function(const hive::Function& func) {
  Changed(core_, "create_function", func.dbName + "." + func.functionName,
          [&] { Check(core_->functions().CreateFunction(func), kCreate); });
}

void HmsHandler::drop_function(const std::string& dbName, const std::string& funcName) {
  Changed(core_, "drop_function", dbName + "." + funcName,
          [&] { Check(core_->functions().DropFunction(dbName, funcName), kLookup); });
}

void HmsHandler::get_functions(std::vector<std::string>& _return, const std::string& dbName,
                               const std::string& pattern) {
  Guard("get_functions", Ex::kMeta,
        [&] { _return = Get(core_->functions().GetFunctionNames(dbName, pattern), kPlain); });
}

void HmsHandler::get_function(hive::Function& _return, const std::string& dbName,
                              const std::string& funcName) {
  Guard("get_function", Ex::kMeta,
        [&] { _return = Get(core_->functions().GetFunction(dbName, funcName), kLookup); });
}

void HmsHandler::get_all_functions(hive::GetAllFunctionsResponse& _return) {
  Guard("get_all_functions", Ex::kMeta,
        [&] { _return.__set_functions(Get(core_->functions().GetAllFunctions(), kPlain)); });
}

// ---- notification log ----

void HmsHandler::get_next_notification(hive::NotificationEventResponse& _return,
                                       const hive::NotificationEventRequest& rqst) {
  Guard("get_next_notification", Ex::kApp,
        [&] { _return.events = Get(core_->notifications().GetNextNotifications(rqst), kApp); });
}

void HmsHandler::get_current_notificationEventId(hive::CurrentNotificationEventId& _return) {
  Guard("get_current_notificationEventId", Ex::kApp,
        [&] { _return.eventId = Get(core_->notifications().CurrentNotificationEventId(), kApp); });
}

}  // namespace ics::catalog::hms
