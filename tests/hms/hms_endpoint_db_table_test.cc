// HMS endpoint over a raw client: configuration, databases, tables,
// functions, the notification log, and resilience to bad input.
#include <filesystem>

#include <thrift/TApplicationException.h>

#include "catalogd/metastore/notification_message.h"
#include "common/hive/function_map.h"
#include "tests/hms/hms_test_util.h"

namespace ics::catalog::hms::testing {
namespace {

using hive::AlreadyExistsException;
using hive::ConfigValSecurityException;
using hive::InvalidObjectException;
using hive::InvalidOperationException;
using hive::MetaException;
using hive::NoSuchObjectException;
using hive::UnknownDBException;

TEST_F(HmsEndpointTest, MetaConfAndConfigValue) {
  std::string v;
  hms().getMetaConf(v, "hive.metastore.warehouse.dir");
  EXPECT_EQ(v, warehouse_);
  hms().getMetaConf(v, "hive.exec.default.partition.name");
  EXPECT_EQ(v, "__HIVE_DEFAULT_PARTITION__");
  hms().getMetaConf(v, "hive.metastore.limit.partition.request");
  EXPECT_EQ(v, "50");
  EXPECT_HMS_ERROR(hms().getMetaConf(v, "hive.no.such.key"), MetaException,
                   "Invalid configuration key 'hive.no.such.key'");
  hms().get_config_value(v, "hive.metastore.warehouse.dir", "dflt");
  EXPECT_EQ(v, warehouse_);
  hms().get_config_value(v, "hive.unknown.key", "dflt");
  EXPECT_EQ(v, "dflt");
  EXPECT_HMS_ERROR(hms().get_config_value(v, "javax.jdo.option.ConnectionPassword", "x"),
                   ConfigValSecurityException, "cannot be read");
}

TEST_F(HmsEndpointTest, DatabaseLifecycleAndErrors) {
  hms().create_database(Db("Sales"));  // lower-cased
  hive::Database db;
  hms().get_database(db, "SALES");
  EXPECT_EQ(db.name, "sales");
  EXPECT_EQ(db.locationUri, warehouse_ + "/sales.db");
  EXPECT_TRUE(std::filesystem::is_directory(db.locationUri));
  EXPECT_EQ(db.description, "test database Sales");

  EXPECT_HMS_ERROR(hms().create_database(Db("sales")), AlreadyExistsException, "sales");
  EXPECT_HMS_ERROR(hms().create_database(Db("a.b")), InvalidObjectException,
                   "'.' is not allowed");
  EXPECT_HMS_ERROR(hms().create_database(Db("")), InvalidObjectException, "database");
  EXPECT_HMS_ERROR(hms().get_database(db, "nope"), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_database(db, "bad\nname"), MetaException, "Invalid database name");

  hms().create_database(Db("sales_eu"));
  hms().create_database(Db("hr"));
  std::vector<std::string> names;
  hms().get_all_databases(names);
  EXPECT_EQ(names, (std::vector<std::string>{"hr", "sales", "sales_eu"}));
  hms().get_databases(names, "sales*");
  EXPECT_EQ(names, (std::vector<std::string>{"sales", "sales_eu"}));
  hms().get_databases(names, "HR|*_eu");
  EXPECT_EQ(names, (std::vector<std::string>{"hr", "sales_eu"}));
  hms().get_databases(names, "x*");
  EXPECT_TRUE(names.empty());

  hive::Database changed = Db("sales");
  changed.description = "new comment";
  changed.parameters["owner_team"] = "bi";
  hms().alter_database("sales", changed);
  hms().get_database(db, "sales");
  EXPECT_EQ(db.description, "new comment");
  EXPECT_EQ(db.parameters.at("owner_team"), "bi");
  EXPECT_EQ(db.locationUri, warehouse_ + "/sales.db");  // kept when not given
  EXPECT_HMS_ERROR(hms().alter_database("nope", Db("nope")), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().alter_database("sales", Db("other")), MetaException, "renamed");

  // Not empty: InvalidOperationException without cascade; cascade drops all.
  hms().create_table(Table("sales", "t1"));
  EXPECT_HMS_ERROR(hms().drop_database("sales", true, false), InvalidOperationException,
                   "non-empty");
  hms().drop_database("sales", true, true);
  EXPECT_HMS_ERROR(hms().get_database(db, "sales"), NoSuchObjectException, "sales");
  EXPECT_FALSE(std::filesystem::exists(warehouse_ + "/sales.db"));  // deleteData
  EXPECT_HMS_ERROR(hms().drop_database("sales", false, false), NoSuchObjectException, "sales");
}

TEST_F(HmsEndpointTest, TableLifecycleAndErrors) {
  hms().create_database(Db("db1"));
  hive::Table t = Table("DB1", "Orders");
  t.sd.cols[0].name = "ID";
  t.parameters["comment"] = "all orders";
  hms().create_table(t);
  hive::Table got;
  hms().get_table(got, "db1", "ORDERS");
  EXPECT_EQ(got.tableName, "orders");
  EXPECT_EQ(got.dbName, "db1");
  EXPECT_EQ(got.sd.cols[0].name, "id");
  EXPECT_EQ(got.tableType, "MANAGED_TABLE");
  EXPECT_EQ(got.sd.location, warehouse_ + "/db1.db/orders");
  EXPECT_EQ(got.sd.inputFormat, "org.apache.hadoop.mapred.TextInputFormat");
  EXPECT_TRUE(got.parameters.count("transient_lastDdlTime"));
  EXPECT_TRUE(std::filesystem::is_directory(got.sd.location));

  hive::EnvironmentContext ctx;
  hive::Table ext = Table("db1", "ext");
  ext.tableType = "EXTERNAL_TABLE";
  ext.sd.location = dir_ + "/outside/ext";
  hms().create_table_with_environment_context(ext, ctx);
  hive::Table view = Table("db1", "v");
  view.tableType = "VIRTUAL_VIEW";
  view.viewOriginalText = "select 1";
  hms().create_table(view);

  EXPECT_HMS_ERROR(hms().create_table(t), AlreadyExistsException, "orders");
  EXPECT_HMS_ERROR(hms().create_table(Table("nodb", "x")), NoSuchObjectException, "nodb");
  hive::Table dup = Table("db1", "dup");
  dup.sd.cols[1].name = "ID";
  EXPECT_HMS_ERROR(hms().create_table(dup), InvalidObjectException, "Duplicate column name: id");
  hive::Table badtype = Table("db1", "bt");
  badtype.sd.cols[1].type = "varchar(";
  EXPECT_HMS_ERROR(hms().create_table(badtype), InvalidObjectException, "Invalid type");
  hive::Table badkind = Table("db1", "bk");
  badkind.tableType = "WEIRD";
  EXPECT_HMS_ERROR(hms().create_table_with_environment_context(badkind, ctx),
                   InvalidObjectException, "Unsupported table type");
  EXPECT_HMS_ERROR(hms().create_table(Table("db1", "a/b")), InvalidObjectException, "'/'");

  std::vector<std::string> names;
  hms().get_all_tables(names, "db1");
  EXPECT_EQ(names, (std::vector<std::string>{"ext", "orders", "v"}));
  hms().get_tables(names, "db1", "o*|v");
  EXPECT_EQ(names, (std::vector<std::string>{"orders", "v"}));
  EXPECT_HMS_ERROR(hms().get_tables(names, "nodb", "*"), MetaException, "nodb");
  EXPECT_HMS_ERROR(hms().get_all_tables(names, "nodb"), MetaException, "nodb");

  std::vector<hive::TableMeta> metas;
  hms().get_table_meta(metas, "db*", "*", {});
  ASSERT_EQ(metas.size(), 3u);
  EXPECT_EQ(metas[1].tableName, "orders");
  EXPECT_EQ(metas[1].comments, "all orders");
  hms().get_table_meta(metas, "*", "*", {"VIRTUAL_VIEW", "EXTERNAL_TABLE"});
  ASSERT_EQ(metas.size(), 2u);
  EXPECT_EQ(metas[0].tableType, "EXTERNAL_TABLE");
  EXPECT_EQ(metas[1].tableType, "VIRTUAL_VIEW");

  std::vector<hive::Table> objs;
  hms().get_table_objects_by_name(objs, "db1", {"v", "missing", "ORDERS", "orders"});
  ASSERT_EQ(objs.size(), 2u);
  EXPECT_EQ(objs[0].tableName, "v");
  EXPECT_EQ(objs[1].tableName, "orders");
  EXPECT_HMS_ERROR(hms().get_table_objects_by_name(objs, "nodb", {"x"}), UnknownDBException,
                   "nodb");
  EXPECT_HMS_ERROR(hms().get_table_objects_by_name(objs, "db1", {"a.b"}),
                   InvalidOperationException, "Invalid table name");
  std::vector<std::string> many(41, "t");
  EXPECT_HMS_ERROR(hms().get_table_objects_by_name(objs, "db1", many), MetaException,
                   "exceeds the limit of 40");

  EXPECT_HMS_ERROR(hms().get_table(got, "db1", "missing"), NoSuchObjectException, "missing");
  EXPECT_HMS_ERROR(hms().get_table(got, "nodb", "orders"), NoSuchObjectException, "nodb");

  // alter_table: new columns, rename, and its errors.
  hive::Table altered = got;
  hms().get_table(altered, "db1", "orders");
  hive::FieldSchema extra;
  extra.name = "Amount";
  extra.type = "decimal(10,2)";
  altered.sd.cols.push_back(extra);
  hms().alter_table("db1", "orders", altered);
  hms().get_table(got, "db1", "orders");
  ASSERT_EQ(got.sd.cols.size(), 3u);
  EXPECT_EQ(got.sd.cols[2].name, "amount");
  altered.tableName = "orders2";
  hms().alter_table_with_environment_context("db1", "orders", altered, ctx);
  hms().get_table(got, "db1", "orders2");
  EXPECT_HMS_ERROR(hms().get_table(got, "db1", "orders"), NoSuchObjectException, "orders");
  EXPECT_HMS_ERROR(hms().alter_table("db1", "missing", altered), InvalidOperationException,
                   "missing");
  altered.tableName = "ext";  // taken
  EXPECT_HMS_ERROR(hms().alter_table("db1", "orders2", altered), InvalidOperationException,
                   "ext");
  hive::Table keyed = Table("db1", "orders2", {"k"});
  EXPECT_HMS_ERROR(hms().alter_table("db1", "orders2", keyed), InvalidOperationException,
                   "partition keys");

  // drop_table: deleteData removes managed data only.
  const std::string loc = warehouse_ + "/db1.db/orders";  // renames move no data
  std::filesystem::create_directories(dir_ + "/outside/ext");
  hms().drop_table("db1", "orders2", true);
  EXPECT_FALSE(std::filesystem::exists(loc));
  hms().drop_table_with_environment_context("db1", "ext", true, ctx);
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/outside/ext"));  // external: kept
  EXPECT_HMS_ERROR(hms().drop_table("db1", "ext", false), NoSuchObjectException, "ext");
  EXPECT_HMS_ERROR(hms().drop_table_with_environment_context("db1", "nope", false, ctx),
                   NoSuchObjectException, "nope");
}

TEST_F(HmsEndpointTest, FunctionsAndErrors) {
  hms().create_database(Db("fdb"));
  hive::Function f;
  f.dbName = "fdb";
  f.functionName = "MyUpper";
  f.className = "com.example.Upper";
  f.ownerName = "alice";
  f.functionType = hive::FunctionType::JAVA;
  hive::ResourceUri jar;
  jar.resourceType = hive::ResourceType::JAR;
  jar.uri = "/udfs/upper.jar";
  f.resourceUris = {jar};
  f.createTime = 1700000000;
  hms().create_function(f);
  hive::Function got;
  hms().get_function(got, "fdb", "MYUPPER");
  EXPECT_EQ(got.functionName, "myupper");
  EXPECT_EQ(got.className, "com.example.Upper");
  ASSERT_EQ(got.resourceUris.size(), 1u);
  EXPECT_EQ(got.resourceUris[0].uri, "/udfs/upper.jar");
  EXPECT_EQ(got.createTime, 1700000000);

  // A catalog (native) function travels encoded, under its signature.
  impala::TFunction native;
  native.name.__set_db_name("fdb");
  native.name.function_name = "add1";
  native.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  native.__set_signature("add1(INT)");
  native.__set_hdfs_location("/udfs/add1.so");
  auto encoded = ToHmsFunction(native);
  ASSERT_TRUE(encoded.ok());
  hms().create_function(*encoded);
  hms().get_function(got, "fdb", "add1(INT)");
  EXPECT_EQ(got.className, encoded->className);
  auto back = FromHmsFunction(got);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, native);

  std::vector<std::string> names;
  hms().get_functions(names, "fdb", "*");
  EXPECT_EQ(names, (std::vector<std::string>{"add1(INT)", "myupper"}));
  hms().get_functions(names, "fdb", "my*");
  EXPECT_EQ(names, (std::vector<std::string>{"myupper"}));
  hive::GetAllFunctionsResponse all;
  hms().get_all_functions(all);
  EXPECT_EQ(all.functions.size(), 2u);

  EXPECT_HMS_ERROR(hms().create_function(f), AlreadyExistsException, "myupper");
  hive::Function nodb = f;
  nodb.dbName = "nodb";
  EXPECT_HMS_ERROR(hms().create_function(nodb), NoSuchObjectException, "nodb");
  hive::Function noclass = f;
  noclass.functionName = "g";
  noclass.className = "";
  EXPECT_HMS_ERROR(hms().create_function(noclass), InvalidObjectException, "no className");
  hive::Function tworesources = f;
  tworesources.functionName = "h";
  tworesources.resourceUris.push_back(jar);
  EXPECT_HMS_ERROR(hms().create_function(tworesources), InvalidObjectException,
                   "at most one JAR");
  hive::Function garbage = f;
  garbage.functionName = "x(INT)";
  garbage.className = std::string(kEncodedFunctionPrefix) + "!!!";
  EXPECT_HMS_ERROR(hms().create_function(garbage), InvalidObjectException, "x(INT)");
  EXPECT_HMS_ERROR(hms().get_function(got, "fdb", "nope"), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_functions(names, "nodb", "*"), MetaException, "nodb");

  hms().drop_function("fdb", "MyUpper");
  hms().drop_function("fdb", "add1(INT)");
  EXPECT_HMS_ERROR(hms().drop_function("fdb", "myupper"), NoSuchObjectException, "myupper");
  hms().get_all_functions(all);
  EXPECT_TRUE(all.functions.empty());
}

TEST_F(HmsEndpointTest, WritesAppearInTheNotificationLog) {
  const int64_t start = CurrentEventId();
  hms().create_database(Db("ev"));
  hms().create_table(Table("ev", "t", {"p"}));
  hive::Partition p;
  hms().add_partition(p, Part("ev", "t", {"a"}));
  hms().append_partition(p, "ev", "t", {"b"});
  hive::Table t;
  hms().get_table(t, "ev", "t");
  t.parameters["x"] = "y";
  hms().alter_table("ev", "t", t);
  hms().drop_partition("ev", "t", {"a"}, false);
  hms().drop_table("ev", "t", false);
  hms().drop_database("ev", false, false);
  EXPECT_EQ(EventTypesAfter(start),
            (std::vector<std::string>{"CREATE_DATABASE", "CREATE_TABLE", "ADD_PARTITION",
                                      "ADD_PARTITION", "ALTER_TABLE", "DROP_PARTITION",
                                      "DROP_TABLE", "DROP_DATABASE"}));
  EXPECT_EQ(CurrentEventId(), start + 8);

  // The messages name the objects (catalogd's event processor reads them).
  hive::NotificationEventRequest req;
  req.lastEvent = start;
  req.__set_maxEvents(3);
  hive::NotificationEventResponse resp;
  hms().get_next_notification(resp, req);
  ASSERT_EQ(resp.events.size(), 3u);
  auto msg = DecodeNotificationMessage(resp.events[2].message);
  ASSERT_TRUE(msg.ok()) << msg.status().ToString();
  EXPECT_EQ(msg->db, "ev");
  EXPECT_EQ(msg->table, "t");
  EXPECT_EQ(msg->partition.value_or(""), "p=a");
  EXPECT_EQ(resp.events[2].dbName, "ev");

  // A failed call writes nothing.
  const int64_t before = CurrentEventId();
  EXPECT_HMS_ERROR(hms().create_table(Table("ev", "t")), NoSuchObjectException, "ev");
  EXPECT_EQ(CurrentEventId(), before);

  // Reads are bounded by the server's cap (100 here).
  for (int i = 0; i < 100; ++i) hms().create_database(Db("d" + std::to_string(i)));
  hive::NotificationEventRequest all;
  all.lastEvent = 0;
  hms().get_next_notification(resp, all);
  EXPECT_EQ(resp.events.size(), 100u);
  all.__set_maxEvents(100000);
  hms().get_next_notification(resp, all);
  EXPECT_EQ(resp.events.size(), 100u);
  all.__set_maxEvents(7);
  hms().get_next_notification(resp, all);
  EXPECT_EQ(resp.events.size(), 7u);
}

// Hive 4's filters of get_next_notification: the skip list, the catalog,
// the database and its tables; maxEvents counts the events that match.
TEST_F(HmsEndpointTest, NotificationFiltersSelectEvents) {
  const int64_t start = CurrentEventId();
  hms().create_database(Db("fa"));
  hms().create_table(Table("fa", "t1"));
  hms().create_table(Table("fa", "t2"));
  hms().create_database(Db("fb"));
  hms().create_table(Table("fb", "t1"));
  auto read = [&](hive::NotificationEventRequest req) {
    req.lastEvent = start;
    hive::NotificationEventResponse resp;
    hms().get_next_notification(resp, req);
    std::vector<std::string> out;
    for (const auto& e : resp.events)
      out.push_back(e.eventType + " " + e.dbName + "." + e.tableName);
    return out;
  };
  hive::NotificationEventRequest skip;
  skip.__set_eventTypeSkipList({"CREATE_TABLE"});
  EXPECT_EQ(read(skip), (std::vector<std::string>{"CREATE_DATABASE fa.", "CREATE_DATABASE fb."}));

  hive::NotificationEventRequest tables;
  tables.__set_dbName("@hive#FA");
  tables.__set_tableNames({"T2"});
  EXPECT_EQ(read(tables), std::vector<std::string>{"CREATE_TABLE fa.t2"});

  hive::NotificationEventRequest one;
  one.__set_dbName("fb");
  one.__set_eventTypeSkipList({"CREATE_DATABASE"});
  one.__set_maxEvents(1);
  EXPECT_EQ(read(one), std::vector<std::string>{"CREATE_TABLE fb.t1"});

  hive::NotificationEventRequest other;
  other.__set_catName("spark");
  EXPECT_TRUE(read(other).empty());
  other.__set_catName("hive");
  EXPECT_EQ(read(other).size(), 5u);

  hive::NotificationEventRequest too_many;
  too_many.__set_dbName("fa");
  too_many.__set_tableNames(std::vector<std::string>(kMaxNotificationFilterNames + 1, "t"));
  hive::NotificationEventResponse resp;
  too_many.lastEvent = start;
  EXPECT_THROW(hms().get_next_notification(resp, too_many), apache::thrift::TException);
}

TEST_F(HmsEndpointTest, UndeclaredErrorsAndGarbageKeepTheServerUp) {
  hive::NotificationEventRequest bad;
  bad.lastEvent = -1;
  hive::NotificationEventResponse resp;
  EXPECT_THROW(hms().get_next_notification(resp, bad), apache::thrift::TApplicationException);
  // The same connection keeps working.
  std::vector<std::string> names;
  hms().get_all_databases(names);

  // A peer sending garbage loses only its own connection.
  {
    auto sock = std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", server_->port());
    sock->setRecvTimeout(5000);
    sock->open();
    const std::string junk = "\xff\xff\xff\xff garbage that is not thrift";
    sock->write(reinterpret_cast<const uint8_t*>(junk.data()), static_cast<uint32_t>(junk.size()));
    sock->flush();
    uint8_t buf[16];
    try {
      sock->read(buf, sizeof buf);  // closed by the server (or an error)
    } catch (const std::exception&) {
    }
  }
  HmsClient other(server_->port());
  other->get_all_databases(names);
  hms().create_database(Db("still_ok"));
}

}  // namespace
}  // namespace ics::catalog::hms::testing
