#include "catalogd/metastore/notification_message.h"

#include <nlohmann/json.hpp>

#include "common/util/base64.h"

namespace ics::catalog {
namespace {

using nlohmann::json;

void PutOptional(json* j, const char* key, const std::optional<std::string>& v) {
  if (v.has_value()) (*j)[key] = *v;
}

// Reads string field `key`; absent is fine unless `required`.
Status GetString(const json& j, const char* key, bool required,
                 std::optional<std::string>* out) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) {
      return Status::Corruption(std::string("notification message lacks \"") + key + "\"");
    }
    return Status::OK();
  }
  if (!it->is_string()) {
    return Status::Corruption(std::string("notification message field \"") + key +
                              "\" is not a string");
  }
  *out = it->get<std::string>();
  return Status::OK();
}

}  // namespace

std::string EncodeNotificationMessage(const NotificationMessage& msg) {
  json j = json::object();
  j["db"] = msg.db;
  j["table"] = msg.table;
  PutOptional(&j, "partition", msg.partition);
  PutOptional(&j, "function", msg.function);
  PutOptional(&j, "old_db", msg.old_db);
  PutOptional(&j, "old_table", msg.old_table);
  if (msg.object.has_value()) j["object"] = Base64Encode(*msg.object);
  // `replace` instead of throwing on names that are not valid UTF-8.
  return j.dump(-1, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

Result<NotificationMessage> DecodeNotificationMessage(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Corruption("notification message is not valid JSON");
  if (!j.is_object()) return Status::Corruption("notification message is not a JSON object");
  NotificationMessage msg;
  std::optional<std::string> db, table, object;
  ICS_RETURN_IF_ERROR(GetString(j, "db", /*required=*/true, &db));
  ICS_RETURN_IF_ERROR(GetString(j, "table", /*required=*/true, &table));
  ICS_RETURN_IF_ERROR(GetString(j, "partition", false, &msg.partition));
  ICS_RETURN_IF_ERROR(GetString(j, "function", false, &msg.function));
  ICS_RETURN_IF_ERROR(GetString(j, "old_db", false, &msg.old_db));
  ICS_RETURN_IF_ERROR(GetString(j, "old_table", false, &msg.old_table));
  ICS_RETURN_IF_ERROR(GetString(j, "object", false, &object));
  msg.db = std::move(*db);
  msg.table = std::move(*table);
  if (object.has_value()) {
    auto bytes = Base64Decode(*object);
    if (!bytes.ok()) {
      return Status::Corruption("notification message \"object\": " + bytes.status().message());
    }
    msg.object = std::move(bytes).value();
  }
  return msg;
}

}  // namespace ics::catalog
