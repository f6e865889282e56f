// Hive metastore data types (structs, enums, unions, exceptions, constants) shared by
// the catalog. Every struct declared here has the field ids, types and requiredness of
// the Hive 4 metastore IDL, as a superset that Hive 2 clients still read: fields a
// Hive 2 peer does not know are optional, except where Hive 3 changed a layout
// incompatibly (GetOpenTxnsResponse, InsertEventRequestData), which follow Hive 3/4.
// Deliberate differences (Hive 4 "required" engine fields declared optional) are
// listed in scripts/idl_allowlist.txt and explained where declared. The metastore
// service itself is declared in hive_metastore_service.thrift.

namespace cpp hive

// Parameter key holding the time of the last DDL change.
const string DDL_TIME = "transient_lastDdlTime"

// ---- Basic schema objects ----

// Metastore schema version and a note about it.
struct Version {
  1: string version,
  2: string comments
}

// One column: name, Hive type string and comment.
struct FieldSchema {
  1: string name,
  2: string type,
  3: string comment
}

// A named (possibly user-defined) Hive type.
struct Type {
  1: string          name,
  2: optional string type1,
  3: optional string type2,
  4: optional list<FieldSchema> fields
}

// Kind of object a privilege is attached to.
enum HiveObjectType {
  GLOBAL = 1,
  DATABASE = 2,
  TABLE = 3,
  PARTITION = 4,
  COLUMN = 5,
}

// Who holds a grant: a user, a role or a group.
enum PrincipalType {
  USER = 1,
  ROLE = 2,
  GROUP = 3,
}

// Key prefixes understood by the table name filter call.
const string HIVE_FILTER_FIELD_OWNER = "hive_filter_field_owner__"
const string HIVE_FILTER_FIELD_PARAMS = "hive_filter_field_params__"
const string HIVE_FILTER_FIELD_LAST_ACCESS = "hive_filter_field_last_access__"

// Events that can be recorded against a partition.
enum PartitionEventType {
  LOAD_DONE = 1,
}

// Where a database's tables live: in this metastore, or behind a data connector
// (Hive 4).
enum DatabaseType {
  NATIVE = 1,
  REMOTE = 2
}

// Which registry a serde comes from (Hive 3+).
enum SerdeType {
  HIVE = 1,
  SCHEMA_REGISTRY = 2,
}

// ---- Transactions and locks ----
enum TxnState {
    COMMITTED = 1,
    ABORTED = 2,
    OPEN = 3,
}

enum LockLevel {
    DB = 1,
    TABLE = 2,
    PARTITION = 3,
}

enum LockState {
    ACQUIRED = 1,
    WAITING = 2,
    ABORT = 3,
    NOT_ACQUIRED = 4,
}

enum LockType {
    SHARED_READ = 1,
    SHARED_WRITE = 2,
    EXCLUSIVE = 3,
}

enum CompactionType {
    MINOR = 1,
    MAJOR = 2,
}

enum GrantRevokeType {
    GRANT = 1,
    REVOKE = 2,
}

// ---- Authorization ----

// Points at the object (global, db, table, partition, column) a grant covers.
struct HiveObjectRef{
  1: HiveObjectType objectType,
  2: string dbName,
  3: string objectName,
  4: list<string> partValues,
  5: string columnName,
  6: optional string catName
}

// One privilege with who granted it and when.
struct PrivilegeGrantInfo {
  1: string privilege,
  2: i32 createTime,
  3: string grantor,
  4: PrincipalType grantorType,
  5: bool grantOption,
}

struct HiveObjectPrivilege {
  1: HiveObjectRef  hiveObject,
  2: string principalName,
  3: PrincipalType principalType,
  4: PrivilegeGrantInfo grantInfo,
  5: string authorizer,
}

struct PrivilegeBag {
  1: list<HiveObjectPrivilege> privileges,
}

// Privileges grouped by user, group and role name.
struct PrincipalPrivilegeSet {
  1: map<string, list<PrivilegeGrantInfo>> userPrivileges,
  2: map<string, list<PrivilegeGrantInfo>> groupPrivileges,
  3: map<string, list<PrivilegeGrantInfo>> rolePrivileges,
}

struct GrantRevokePrivilegeRequest {
  1: GrantRevokeType requestType;
  2: PrivilegeBag privileges;
  3: optional bool revokeGrantOption;
}

struct GrantRevokePrivilegeResponse {
  1: optional bool success;
}

// A role and its owner.
struct Role {
  1: string roleName,
  2: i32 createTime,
  3: string ownerName,
}

// Membership of a principal in a role.
struct RolePrincipalGrant {
  1: string roleName,
  2: string principalName,
  3: PrincipalType principalType,
  4: bool grantOption,
  5: i32 grantTime,
  6: string grantorName,
  7: PrincipalType grantorPrincipalType
}

struct GetRoleGrantsForPrincipalRequest {
  1: required string principal_name,
  2: required PrincipalType principal_type
}

struct GetRoleGrantsForPrincipalResponse {
  1: required list<RolePrincipalGrant> principalGrants;
}

struct GetPrincipalsInRoleRequest {
  1: required string roleName;
}

struct GetPrincipalsInRoleResponse {
  1: required list<RolePrincipalGrant> principalGrants;
}

struct GrantRevokeRoleRequest {
  1: GrantRevokeType requestType;
  2: string roleName;
  3: string principalName;
  4: PrincipalType principalType;
  5: optional string grantor;
  6: optional PrincipalType grantorType;
  7: optional bool grantOption;
}

struct GrantRevokeRoleResponse {
  1: optional bool success;
}

// ---- Column statistics ----
// Hive 3 added optional bitVectors (a serialized distinct-value sketch) to every
// kind and histogram to the ordered ones; Hive 3 also added DATE and Hive 4
// TIMESTAMP statistics (members 7 and 8 of ColumnStatisticsData). Clients that
// predate them skip the fields and members they do not know.
struct BooleanColumnStatsData {
1: required i64 numTrues,
2: required i64 numFalses,
3: required i64 numNulls,
4: optional binary bitVectors
}

struct DoubleColumnStatsData {
1: optional double lowValue,
2: optional double highValue,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors,
6: optional binary histogram
}

struct LongColumnStatsData {
1: optional i64 lowValue,
2: optional i64 highValue,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors,
6: optional binary histogram
}

struct StringColumnStatsData {
1: required i64 maxColLen,
2: required double avgColLen,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors
}

struct BinaryColumnStatsData {
1: required i64 maxColLen,
2: required double avgColLen,
3: required i64 numNulls,
4: optional binary bitVectors
}

// Decimal as big-endian unscaled bytes plus scale.
struct Decimal {
1: required binary unscaled,
3: required i16 scale
}

struct DecimalColumnStatsData {
1: optional Decimal lowValue,
2: optional Decimal highValue,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors,
6: optional binary histogram
}

// A DATE value: whole days after 1970-01-01 (negative before it).
struct Date {
1: required i64 daysSinceEpoch
}

struct DateColumnStatsData {
1: optional Date lowValue,
2: optional Date highValue,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors,
6: optional binary histogram
}

// A TIMESTAMP value: whole seconds after 1970-01-01 00:00:00.
struct Timestamp {
1: required i64 secondsSinceEpoch
}

struct TimestampColumnStatsData {
1: optional Timestamp lowValue,
2: optional Timestamp highValue,
3: required i64 numNulls,
4: required i64 numDVs,
5: optional binary bitVectors,
6: optional binary histogram
}

// Per-type column statistics; exactly one member is set. Which member a column
// type uses: BOOLEAN booleanStats; TINYINT..BIGINT longStats; FLOAT, DOUBLE
// doubleStats; STRING, VARCHAR, CHAR stringStats; BINARY binaryStats; DECIMAL
// decimalStats; DATE dateStats. TIMESTAMP: Impala writes and reads longStats,
// Hive 4 writes timestampStats; this catalog accepts and keeps both.
union ColumnStatisticsData {
1: BooleanColumnStatsData booleanStats,
2: LongColumnStatsData longStats,
3: DoubleColumnStatsData doubleStats,
4: StringColumnStatsData stringStats,
5: BinaryColumnStatsData binaryStats,
6: DecimalColumnStatsData decimalStats,
7: DateColumnStatsData dateStats,
8: TimestampColumnStatsData timestampStats
}

// Statistics of one column.
struct ColumnStatisticsObj {
1: required string colName,
2: required string colType,
3: required ColumnStatisticsData statsData
}

// Identifies the table or partition the statistics belong to.
struct ColumnStatisticsDesc {
1: required bool isTblLevel,
2: required string dbName,
3: required string tableName,
4: optional string partName,
5: optional i64 lastAnalyzed,
6: optional string catName
}

// engine (Hive 4) names the engine the statistics are for ("impala" when
// catalogd writes them); a Hive 4 metastore keeps one set per engine.
struct ColumnStatistics {
1: required ColumnStatisticsDesc statsDesc,
2: required list<ColumnStatisticsObj> statsObj;
3: optional bool isStatsCompliant,
4: optional string engine
}

// Per-file metadata some engines keep with a table or partition; one binary
// per file in data, whose encoding type names (1 = Impala's).
struct FileMetadata {
  1: i8 type = 1
  2: i8 version = 1
  3: list<binary> data
}

// Objects a response refers to by index instead of repeating them, by kind.
struct ObjectDictionary {
  1: required map<string, list<binary>> values
}

// ---- Databases, tables, partitions ----

// A database (namespace for tables).
struct Database {
  1: string name,
  2: string description,
  3: string locationUri,
  4: map<string, string> parameters,
  5: optional PrincipalPrivilegeSet privileges,
  6: optional string ownerName,
  7: optional PrincipalType ownerType,
  8: optional string catalogName,
  9: optional i32 createTime,
  10: optional string managedLocationUri,
  11: optional DatabaseType type,
  12: optional string connector_name,
  13: optional string remote_dbname
}

// Serializer/deserializer class and its settings.
struct SerDeInfo {
  1: string name,
  2: string serializationLib,
  3: map<string, string> parameters,
  4: optional string description,
  5: optional string serializerClass,
  6: optional string deserializerClass,
  7: optional SerdeType serdeType
}

// Sort column; order is 1 for ascending and 0 for descending.
struct Order {
  1: string col,
  2: i32    order
}

// Skewed columns, their values and where those values are stored.
struct SkewedInfo {
  1: list<string> skewedColNames,
  2: list<list<string>> skewedColValues,
  3: map<list<string>, string> skewedColValueLocationMaps,
}

// Physical layout of a table or partition: columns, location, formats, serde.
struct StorageDescriptor {
  1: list<FieldSchema> cols,
  2: string location,
  3: string inputFormat,
  4: string outputFormat,
  5: bool   compressed,
  6: i32    numBuckets,
  7: SerDeInfo    serdeInfo,
  8: list<string> bucketCols,
  9: list<Order>  sortCols,
  10: map<string, string> parameters,
  11: optional SkewedInfo skewedInfo,
  12: optional bool   storedAsSubDirectories
}

// What a materialized view was built from (Hive 3+): the tables it reads and,
// per source table, the rows changed since.
struct CreationMetadata {
  1: required string catName,
  2: required string dbName,
  3: required string tblName,
  4: required set<string> tablesUsed,
  5: optional string validTxnList,
  6: optional i64 materializationTime,
  7: optional list<SourceTable> sourceTables
}

// A table or view as stored in the metastore. Fields 15-28 are Hive 3/4
// additions; a Hive 2 client skips them, and this catalog keeps what a client
// sends in them as part of the table.
struct Table {
  1: string tableName,
  2: string dbName,
  3: string owner,
  4: i32    createTime,
  5: i32    lastAccessTime,
  6: i32    retention,
  7: StorageDescriptor sd,
  8: list<FieldSchema> partitionKeys,
  9: map<string, string> parameters,
  10: string viewOriginalText,
  11: string viewExpandedText,
  12: string tableType,
  13: optional PrincipalPrivilegeSet privileges,
  14: optional bool temporary=false,
  15: optional bool rewriteEnabled,
  16: optional CreationMetadata creationMetadata,
  17: optional string catName,
  18: optional PrincipalType ownerType = PrincipalType.USER,
  19: optional i64 writeId=-1,
  20: optional bool isStatsCompliant,
  21: optional ColumnStatistics colStats,
  22: optional i8 accessType,
  23: optional list<string> requiredReadCapabilities,
  24: optional list<string> requiredWriteCapabilities,
  25: optional i64 id,
  26: optional FileMetadata fileMetadata,
  27: optional ObjectDictionary dictionary,
  28: optional i64 txnId
}

// One source of a materialized view and its change counts.
struct SourceTable {
  1: required Table table,
  2: required i64 insertedCount,
  3: required i64 updatedCount,
  4: required i64 deletedCount
}

// One partition of a table.
struct Partition {
  1: list<string> values
  2: string       dbName,
  3: string       tableName,
  4: i32          createTime,
  5: i32          lastAccessTime,
  6: StorageDescriptor   sd,
  7: map<string, string> parameters,
  8: optional PrincipalPrivilegeSet privileges,
  9: optional string catName,
  10: optional i64 writeId=-1,
  11: optional bool isStatsCompliant,
  12: optional ColumnStatistics colStats,
  13: optional FileMetadata fileMetadata
}

// Partition that shares its storage descriptor with siblings.
struct PartitionWithoutSD {
  1: list<string> values
  2: i32          createTime,
  3: i32          lastAccessTime,
  4: string       relativePath,
  5: map<string, string> parameters,
  6: optional PrincipalPrivilegeSet privileges
}

struct PartitionSpecWithSharedSD {
  1: list<PartitionWithoutSD> partitions,
  2: StorageDescriptor sd,
}

struct PartitionListComposingSpec {
  1: list<Partition> partitions
}

// Compact encoding of a set of partitions of one table.
struct PartitionSpec {
  1: string dbName,
  2: string tableName,
  3: string rootPath,
  4: optional PartitionSpecWithSharedSD sharedSDPartitionSpec,
  5: optional PartitionListComposingSpec partitionList,
  6: optional string catName,
  7: optional i64 writeId=-1,
  8: optional bool isStatsCompliant
}

// Legacy Hive index definition.
struct Index {
  1: string       indexName,
  2: string       indexHandlerClass,
  3: string       dbName,
  4: string       origTableName,
  5: i32          createTime,
  6: i32          lastAccessTime,
  7: string       indexTableName,
  8: StorageDescriptor   sd,
  9: map<string, string> parameters,
  10: bool         deferredRebuild
}

// Column statistics merged over several partitions.
struct AggrStats {
1: required list<ColumnStatisticsObj> colStats,
2: required i64 partsFound,
3: optional bool isStatsCompliant
}

// engine: required in Hive 4, absent in Hive 2. Declared optional here so that
// requests from Hive 2 clients still decode (the endpoint then assumes
// "impala"); catalogd's own requests always set it. The same holds for the
// engine of TableStatsRequest and PartitionsStatsRequest.
struct SetPartitionsStatsRequest {
1: required list<ColumnStatistics> colStats,
2: optional bool needMerge,
3: optional i64 writeId=-1,
4: optional string validWriteIdList,
5: optional string engine
}

struct SetPartitionsStatsResponse {
1: required bool result;
}

// Result/column schema with extra properties.
struct Schema {
 1: list<FieldSchema> fieldSchemas,
 2: map<string, string> properties
}

// Free-form properties passed along with create/alter calls.
struct EnvironmentContext {
  1: map<string, string> properties
}

// ---- Partition and statistics request/response bodies ----
struct PartitionsByExprResult {
  1: required list<Partition> partitions,
  2: required bool hasUnknownPartitions
}

struct PartitionsByExprRequest {
  1: required string dbName,
  2: required string tblName,
  3: required binary expr,
  4: optional string defaultPartitionName,
  5: optional i16 maxParts=-1,
  6: optional string catName,
  7: optional string order,
  8: optional string validWriteIdList,
  9: optional i64 id=-1
}

struct TableStatsResult {
  1: required list<ColumnStatisticsObj> tableStats,
  2: optional bool isStatsCompliant
}

struct PartitionsStatsResult {
  1: required map<string, list<ColumnStatisticsObj>> partStats,
  2: optional bool isStatsCompliant
}

// engine: optional here, required in Hive 4 (see SetPartitionsStatsRequest).
struct TableStatsRequest {
 1: required string dbName,
 2: required string tblName,
 3: required list<string> colNames
 4: optional string catName,
 5: optional string validWriteIdList,
 6: optional string engine,
 7: optional i64 id=-1
}

// engine: optional here, required in Hive 4 (see SetPartitionsStatsRequest).
struct PartitionsStatsRequest {
 1: required string dbName,
 2: required string tblName,
 3: required list<string> colNames,
 4: required list<string> partNames,
 5: optional string catName,
 6: optional string validWriteIdList,
 7: optional string engine
}

struct AddPartitionsResult {
  1: optional list<Partition> partitions,
  2: optional bool isStatsCompliant
}

struct AddPartitionsRequest {
  1: required string dbName,
  2: required string tblName,
  3: required list<Partition> parts,
  4: required bool ifNotExists,
  5: optional bool needResult=true,
  6: optional string catName,
  7: optional string validWriteIdList
}

struct DropPartitionsResult {
  1: optional list<Partition> partitions,
}

struct DropPartitionsExpr {
  1: required binary expr;
  2: optional i32 partArchiveLevel;
}

// Partitions named either by name or by serialized expression.
union RequestPartsSpec {
  1: list<string> names;
  2: list<DropPartitionsExpr> exprs;
}

struct DropPartitionsRequest {
  1: required string dbName,
  2: required string tblName,
  3: required RequestPartsSpec parts,
  4: optional bool deleteData,
  5: optional bool ifExists=true,
  6: optional bool ignoreProtection,
  7: optional EnvironmentContext environmentContext,
  8: optional bool needResult=true,
  9: optional string catName
}

// ---- User-defined functions ----
enum FunctionType {
  JAVA = 1,
}

enum ResourceType {
  JAR     = 1,
  FILE    = 2,
  ARCHIVE = 3,
}

struct ResourceUri {
  1: ResourceType resourceType,
  2: string       uri,
}

struct Function {
  1: string           functionName,
  2: string           dbName,
  3: string           className,
  4: string           ownerName,
  5: PrincipalType    ownerType,
  6: i32              createTime,
  7: FunctionType     functionType,
  8: list<ResourceUri> resourceUris,
  9: optional string  catName
}

// ---- Transaction, lock and compaction bodies ----
struct TxnInfo {
    1: required i64 id,
    2: required TxnState state,
    3: required string user,
    4: required string hostname,
}

struct GetOpenTxnsInfoResponse {
    1: required i64 txn_high_water_mark,
    2: required list<TxnInfo> open_txns,
}

// Hive 3 layout: open_txns became a list (it was a set through Hive 2) and
// abortedBits marks which of them are aborted.
struct GetOpenTxnsResponse {
    1: required i64 txn_high_water_mark,
    2: required list<i64> open_txns,
    3: optional i64 min_open_txn,
    4: required binary abortedBits,
}

struct OpenTxnRequest {
    1: required i32 num_txns,
    2: required string user,
    3: required string hostname,
}

struct OpenTxnsResponse {
    1: required list<i64> txn_ids,
}

struct AbortTxnRequest {
    1: required i64 txnid,
}

struct CommitTxnRequest {
    1: required i64 txnid,
}

struct LockComponent {
    1: required LockType type,
    2: required LockLevel level,
    3: required string dbname,
    4: optional string tablename,
    5: optional string partitionname,
}

struct LockRequest {
    1: required list<LockComponent> component,
    2: optional i64 txnid,
    3: required string user,
    4: required string hostname,
}

struct LockResponse {
    1: required i64 lockid,
    2: required LockState state,
}

struct CheckLockRequest {
    1: required i64 lockid,
}

struct UnlockRequest {
    1: required i64 lockid,
}

// Empty for now; reserved for filters.
struct ShowLocksRequest {
}

struct ShowLocksResponseElement {
    1: required i64 lockid,
    2: required string dbname,
    3: optional string tablename,
    4: optional string partname,
    5: required LockState state,
    6: required LockType type,
    7: optional i64 txnid,
    8: required i64 lastheartbeat,
    9: optional i64 acquiredat,
    10: required string user,
    11: required string hostname,
}

struct ShowLocksResponse {
    1: list<ShowLocksResponseElement> locks,
}

struct HeartbeatRequest {
    1: optional i64 lockid,
    2: optional i64 txnid
}

struct HeartbeatTxnRangeRequest {
    1: required i64 min,
    2: required i64 max
}

struct HeartbeatTxnRangeResponse {
    1: required set<i64> aborted,
    2: required set<i64> nosuch
}

struct CompactionRequest {
    1: required string dbname,
    2: required string tablename,
    3: optional string partitionname,
    4: required CompactionType type,
    5: optional string runas,
}

struct ShowCompactRequest {
}

struct ShowCompactResponseElement {
    1: required string dbname,
    2: required string tablename,
    3: optional string partitionname,
    4: required CompactionType type,
    5: required string state,
    6: optional string workerid,
    7: optional i64 start,
    8: optional string runAs,
}

struct ShowCompactResponse {
    1: required list<ShowCompactResponseElement> compacts,
}

// ---- Notification log ----
struct NotificationEventRequest {
    1: required i64 lastEvent,
    2: optional i32 maxEvents,
    3: optional list<string> eventTypeSkipList,
    // Hive 4: only the events of this catalog, database and tables.
    4: optional string catName,
    5: optional string dbName,
    6: optional list<string> tableNames,
}

struct NotificationEvent {
    1: required i64 eventId,
    2: required i32 eventTime,
    3: required string eventType,
    4: optional string dbName,
    5: optional string tableName,
    6: required string message,
    7: optional string messageFormat,
    8: optional string catName
}

struct NotificationEventResponse {
    1: required list<NotificationEvent> events,
}

struct CurrentNotificationEventId {
    1: required i64 eventId,
}

// Files an insert added (layout since Hive 2: field 1 became replace).
struct InsertEventRequestData {
    1: optional bool replace,
    2: required list<string> filesAdded,
    3: optional list<string> filesAddedChecksum,
    4: optional list<string> subDirectoryList,
    5: optional list<string> partitionVal
}

union FireEventRequestData {
    1: InsertEventRequestData insertData
    2: list<InsertEventRequestData> insertDatas
}

// Client-requested event (e.g. files added by an insert).
struct FireEventRequest {
    1: required bool successful,
    2: required FireEventRequestData data
    3: optional string dbName,
    4: optional string tableName,
    5: optional list<string> partitionVals,
    6: optional string catName,
}

struct FireEventResponse {
    1: list<i64> eventIds
}

struct GetAllFunctionsResponse {
  1: optional list<Function> functions
}

// Short table description used by table listing calls.
struct TableMeta {
  1: required string dbName;
  2: required string tableName;
  3: required string tableType;
  4: optional string comments;
  5: optional string catName;
}

// ---- Exceptions; each carries a message ----
exception MetaException {
  1: string message
}

exception UnknownTableException {
  1: string message
}

exception UnknownDBException {
  1: string message
}

exception AlreadyExistsException {
  1: string message
}

exception InvalidPartitionException {
  1: string message
}

exception UnknownPartitionException {
  1: string message
}

exception InvalidObjectException {
  1: string message
}

exception NoSuchObjectException {
  1: string message
}

exception IndexAlreadyExistsException {
  1: string message
}

exception InvalidOperationException {
  1: string message
}

exception ConfigValSecurityException {
  1: string message
}

exception InvalidInputException {
  1: string message
}

exception NoSuchTxnException {
    1: string message
}

exception TxnAbortedException {
    1: string message
}

exception TxnOpenException {
    1: string message
}

exception NoSuchLockException {
    1: string message
}

// ---- Well-known parameter keys ----
const string IS_ARCHIVED = "is_archived",
const string ORIGINAL_LOCATION = "original_location",

const string IS_IMMUTABLE = "immutable",

const string META_TABLE_COLUMNS   = "columns",
const string META_TABLE_COLUMN_TYPES   = "columns.types",
const string BUCKET_FIELD_NAME    = "bucket_field_name",
const string BUCKET_COUNT         = "bucket_count",
const string FIELD_TO_DIMENSION   = "field_to_dimension",
const string META_TABLE_NAME      = "name",
const string META_TABLE_DB        = "db",
const string META_TABLE_LOCATION  = "location",
const string META_TABLE_SERDE     = "serde",
const string META_TABLE_PARTITION_COLUMNS = "partition_columns",
const string META_TABLE_PARTITION_COLUMN_TYPES = "partition_columns.types",
const string FILE_INPUT_FORMAT    = "file.inputformat",
const string FILE_OUTPUT_FORMAT   = "file.outputformat",
const string META_TABLE_STORAGE   = "storage_handler",
const string TABLE_IS_TRANSACTIONAL = "transactional",
const string TABLE_NO_AUTO_COMPACT = "no_auto_compaction",

// ---- Constraint structs (Hive 3 metastore), used by Impala's SqlConstraints ----

// One column of a primary key.
struct SQLPrimaryKey {
  1: string table_db,
  2: string table_name,
  3: string column_name,
  4: i32 key_seq,
  5: string pk_name,
  6: bool enable_cstr,
  7: bool validate_cstr,
  8: bool rely_cstr,
  9: optional string catName
}

// One column of a foreign key and the primary key column it references.
struct SQLForeignKey {
  1: string pktable_db,
  2: string pktable_name,
  3: string pkcolumn_name,
  4: string fktable_db,
  5: string fktable_name,
  6: string fkcolumn_name,
  7: i32 key_seq,
  8: i32 update_rule,
  9: i32 delete_rule,
  10: string fk_name,
  11: string pk_name,
  12: bool enable_cstr,
  13: bool validate_cstr,
  14: bool rely_cstr,
  15: optional string catName
}

// ---- Request-object calls of Hive 3/4 clients (ids and requiredness as in
// Hive 4's metastore IDL). Field 3 of GetTableRequest and GetTablesRequest
// (the client's capabilities) is not declared: a client's value is skipped.

// Which fields of the returned objects a caller needs; this metastore
// returns whole objects.
struct GetProjectionsSpec {
  1: list<string> fieldList,
  2: string includeParamKeyPattern,
  3: string excludeParamKeyPattern,
}

struct GetTableRequest {
  1: required string dbName,
  2: required string tblName,
  4: optional string catName,
  6: optional string validWriteIdList,
  7: optional bool getColumnStats,      // table-level column statistics in table.colStats
  8: optional list<string> processorCapabilities,
  9: optional string processorIdentifier,
  10: optional string engine,
  11: optional i64 id = -1,
}

struct GetTableResult {
  1: required Table table,
  2: optional bool isStatsCompliant,
}

struct GetTablesRequest {
  1: required string dbName,
  2: optional list<string> tblNames,     // unset: every table (or those tablesPattern matches)
  4: optional string catName,
  5: optional list<string> processorCapabilities,
  6: optional string processorIdentifier,
  7: optional GetProjectionsSpec projectionSpec,
  8: optional string tablesPattern,
}

struct GetTablesResult {
  1: required list<Table> tables,
}

struct GetDatabaseRequest {
  1: optional string name,
  2: optional string catalogName,
  3: optional list<string> processorCapabilities,
  4: optional string processorIdentifier,
}

struct GetFieldsRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tblName,
  4: optional EnvironmentContext envContext,
  5: optional string validWriteIdList,
  6: optional i64 id = -1,
}

struct GetFieldsResponse {
  1: required list<FieldSchema> fields,
}

struct GetSchemaRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tblName,
  4: optional EnvironmentContext envContext,
  5: optional string validWriteIdList,
  6: optional i64 id = -1,
}

struct GetSchemaResponse {
  1: required list<FieldSchema> fields,
}

struct GetPartitionNamesPsRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tblName,
  4: optional list<string> partValues,
  5: optional i16 maxParts = -1,
  6: optional string validWriteIdList,
  7: optional i64 id = -1,
}

struct GetPartitionNamesPsResponse {
  1: required list<string> names,
}

struct GetPartitionsPsWithAuthRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tblName,
  4: optional list<string> partVals,
  5: optional i16 maxParts = -1,
  6: optional string userName,
  7: optional list<string> groupNames,
  8: optional string validWriteIdList,
  9: optional i64 id = -1,
}

struct GetPartitionsPsWithAuthResponse {
  1: required list<Partition> partitions,
}

// A catalog: a namespace of databases. This metastore serves one.
struct Catalog {
  1: string name,
  2: optional string description,
  3: string locationUri,
  4: optional i32 createTime,
}

struct GetCatalogRequest {
  1: string name,
}

struct GetCatalogResponse {
  1: Catalog catalog,
}

struct GetCatalogsResponse {
  1: list<string> names,
}

struct GetPartitionsByNamesRequest {
  1: required string db_name,
  2: required string tbl_name,
  3: optional list<string> names,
  4: optional bool get_col_stats,        // each partition's column statistics in colStats
  5: optional list<string> processorCapabilities,
  6: optional string processorIdentifier,
  7: optional string engine = "hive",
  8: optional string validWriteIdList,
  9: optional bool getFileMetadata,
  10: optional i64 id = -1,
  11: optional bool skipColumnSchemaForPartition,
  12: optional string includeParamKeyPattern,
  13: optional string excludeParamKeyPattern,
}

// Field 2 of Hive 4's result (a dictionary of shared objects) is not sent.
struct GetPartitionsByNamesResult {
  1: required list<Partition> partitions,
}
