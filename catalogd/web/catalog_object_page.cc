// /catalog_object?type=...&name=... (or Impala's object_type= / object_name=):
// one catalog object as catalogd serves it (GetCatalogObject's full form),
// printed as Thrift text in "thrift_string", the key Impala uses.
#include <cctype>
#include <sstream>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/web/catalog_pages.h"
#include "common/codec/catalog_topic.h"
#include "common/hive/names.h"

namespace ics::catalog {

namespace {

using Json = nlohmann::ordered_json;
using impala::TCatalogObjectType;

// Bigger objects (tables with very many partitions and files) are cut.
constexpr size_t kMaxTextBytes = 4 << 20;

constexpr const char* kTypes = "CATALOG, DATABASE, TABLE, VIEW, FUNCTION";

// "db.rest" -> (normalized db, rest); INVALID_ARGUMENT without a '.'.
Result<std::pair<std::string, std::string>> SplitQualified(const std::string& name,
                                                           const char* what) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) {
    return Status::InvalidArgument(std::string("name must be <database>.<") + what + ">, got '" +
                                   name + "'");
  }
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(name.substr(0, dot)));
  return std::make_pair(db, name.substr(dot + 1));
}

Result<impala::TCatalogObject> FindObject(const Catalog& catalog, const std::string& type,
                                          const std::string& name) {
  if (type == "CATALOG") {
    return CatalogServiceObject(catalog.service_id(), catalog.version(),
                                catalog.last_reset_version());
  }
  if (name.empty()) return Status::InvalidArgument("type " + type + " needs ?name=");
  if (type == "DATABASE") {
    ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(name));
    DatabasePtr d = catalog.GetDatabase(db);
    if (d == nullptr) return Status::NotFound("no database '" + db + "'");
    return DatabaseObject(*d);
  }
  if (type == "TABLE" || type == "VIEW") {
    ICS_ASSIGN_OR_RETURN(auto parts, SplitQualified(name, "table"));
    ICS_ASSIGN_OR_RETURN(std::string table, NormalizeTableName(parts.second));
    TablePtr t = catalog.GetTable(parts.first, table);
    if (t == nullptr) return Status::NotFound("no table '" + parts.first + "." + table + "'");
    if (t->is_view() != (type == "VIEW")) {
      return Status::NotFound(parts.first + "." + table + " is a " +
                              (t->is_view() ? "view" : "table") + ", not a " +
                              (type == "VIEW" ? "view" : "table"));
    }
    return TableObjectFull(*t);
  }
  if (type == "FUNCTION") {
    ICS_ASSIGN_OR_RETURN(auto parts, SplitQualified(name, "signature, e.g. f(int)"));
    FunctionPtr f = catalog.GetFunction(parts.first, parts.second);
    if (f == nullptr) {
      return Status::NotFound("no function '" + parts.second + "' in database '" + parts.first +
                              "' (name it by its signature, e.g. db.f(int,string))");
    }
    return FunctionObject(*f);
  }
  return Status::InvalidArgument("unknown object type '" + type + "' (expected one of " + kTypes +
                                 ")");
}

Status ObjectPage(const CatalogPagesDeps& deps, const web::WebRequest& req, Json* doc) {
  // Impala's parameter names, object_type and object_name, are accepted too.
  const char* type_param = req.Has("object_type") ? "object_type" : "type";
  const char* name_param = req.Has("object_name") ? "object_name" : "name";
  if ((req.Has("object_type") && req.Has("type")) || (req.Has("object_name") && req.Has("name"))) {
    return Status::InvalidArgument("give the object as type=&name= or object_type=&object_name=, "
                                   "not both");
  }
  if (!req.Has(type_param)) {
    return Status::InvalidArgument(std::string("this page needs ?type=<") + kTypes +
                                   ">&name=<name> (TABLE: db.table, FUNCTION: db.f(int))");
  }
  std::string type = req.Param(type_param);
  for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string name = req.Param(name_param);
  ICS_ASSIGN_OR_RETURN(impala::TCatalogObject obj, FindObject(*deps.catalog, type, name));
  std::ostringstream text;
  obj.printTo(text);
  std::string s = text.str();
  Json& d = *doc;
  d["type"] = type;
  d["name"] = name;
  d["object_type"] = impala::to_string(obj.type);
  d["catalog_version"] = obj.catalog_version;
  d["topic_key"] = CatalogTopicKey(obj);
  if (s.size() > kMaxTextBytes) {
    d["text_truncated_at_bytes"] = static_cast<int64_t>(kMaxTextBytes);
    s.resize(kMaxTextBytes);
  }
  d["thrift_string"] = std::move(s);
  return Status::OK();
}

std::string RenderObjectPage(const Json& doc) {
  Json summary = Json::object();
  for (const auto& [k, v] : doc.items()) {
    if (k != "thrift_string") summary[k] = v;
  }
  std::string out = web::RenderJsonHtml(summary);
  if (doc.contains("thrift_string")) {
    out += "<h2>object</h2>\n<pre style=\"white-space:pre-wrap;word-break:break-all\">" +
           web::HtmlEscape(doc["thrift_string"].get<std::string>()) + "</pre>\n";
  }
  return out;
}

}  // namespace

namespace web_internal {

void RegisterCatalogObjectPage(web::WebServer* server, const CatalogPagesDeps& deps) {
  web::PageOptions opts;
  opts.params = {"type", "name", "object_type", "object_name"};
  opts.renderer = RenderObjectPage;
  opts.in_menu = false;
  server->RegisterPage(
      "/catalog_object", "Catalog object",
      [deps](const web::WebRequest& req, Json* doc) { return ObjectPage(deps, req, doc); },
      std::move(opts));
}

}  // namespace web_internal

}  // namespace ics::catalog
