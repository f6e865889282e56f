// Statestore RPC interfaces (StatestoreService, StatestoreSubscriber) and their
// structs. Method names, argument ids, field ids, types, requiredness and defaults
// match Apache Impala's StatestoreService.thrift for wire compatibility.

namespace cpp impala

include "Status.thrift"
include "Types.thrift"
include "CatalogService.thrift"

// Protocol version; registrations older than V2 are refused.
enum StatestoreServiceVersion {
   V1 = 0
   V2 = 1
}

// One key/value entry of a topic; deleted marks a tombstone.
struct TTopicItem {
  1: required string key;
  2: required string value;  // bytes (Impala declares a string; same encoding)
  3: required bool deleted = false;
}

// A set of topic changes. Sent by the statestore as an update, and returned by a
// subscriber as its publication (from_version then asks for a new base).
struct TTopicDelta {
  1: required string topic_name;
  2: required list<TTopicItem> topic_entries;
  3: required bool is_delta;
  4: optional i64 from_version
  5: optional i64 to_version
  6: optional i64 min_subscriber_topic_version
  7: optional bool clear_topic_entries
}

// A subscriber's interest in one topic. Entries of transient topics are removed when
// their writer goes away; filter_prefix limits which keys are sent.
struct TTopicRegistration {
  1: required string topic_name;
  2: required bool is_transient;
  3: required bool populate_min_subscriber_topic_version = false;
  4: optional string filter_prefix
}

// Role of a subscriber.
enum TStatestoreSubscriberType {
  UNKNOWN = 0
  ADMISSIOND = 1
  CATALOGD = 2
  COORDINATOR = 3
  EXECUTOR = 4
  COORDINATOR_EXECUTOR = 5
}

// Subscriber's view of its connection to the statestore.
enum TStatestoreConnState {
   OK = 0
   FAILED = 1
   UNKNOWN = 2
}

// Registration details a catalogd passes to the statestore.
struct TCatalogRegistration {
  1: required CatalogService.CatalogServiceVersion protocol;
  2: required Types.TNetworkAddress address;
  3: optional bool enable_catalogd_ha;
  4: optional bool force_catalogd_active;
  5: optional i64 registration_time;
}

struct TRegisterSubscriberRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
  2: required string subscriber_id;
  3: required Types.TNetworkAddress subscriber_location;
  4: required list<TTopicRegistration> topic_registrations;
  5: optional TStatestoreSubscriberType subscriber_type;
  6: optional bool subscribe_catalogd_change;
  7: optional TCatalogRegistration catalogd_registration;
  // This project's own field (an id far from Impala's; Impala's statestore
  // skips it): a shared-secret token that identifies the subscriber when
  // mutual TLS does not (statestore/subscriber_tokens.h).
  100: optional string auth_token;
  // This project's own field: the subscriber also serves UpdateStateOneway
  // (see the StatestoreSubscriber service). A statestore that knows the
  // field may then send it updates without waiting for a reply; one that
  // does not (Impala's) skips it and keeps calling UpdateState.
  101: optional bool accepts_oneway_updates;
}

struct TRegisterSubscriberResponse {
  1: required Status.TStatus status;
  2: optional Types.TUniqueId registration_id;
  3: optional StatestoreServiceVersion protocol_version;
  4: optional Types.TUniqueId statestore_id;
  5: optional TCatalogRegistration catalogd_registration;
  6: optional i64 catalogd_version;
  7: optional bool statestore_is_active;
  8: optional i64 active_statestored_version;
}

struct TGetProtocolVersionRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
}

struct TGetProtocolVersionResponse {
  1: required Status.TStatus status;
  2: required StatestoreServiceVersion protocol_version;
  3: optional Types.TUniqueId statestore_id;
}

// One entry of TRequestTopicUpdateRequest field 7.
struct TTopicResend {
  1: required string topic_name;
  // The subscriber's processed version of the topic: send from here.
  2: required i64 from_version;
  // to_version of the UpdateStateOneway delta it did not apply.
  3: required i64 rejected_to_version;
}

// Calls subscribers make on the statestore.
// Project extension (not in the peer): a registered subscriber asks the
// statestore to send it a topic update right away, so that what it wants to
// publish is collected in that update's reply instead of waiting for the
// next scheduled one. Peers that never call it are unaffected.
//
// With field 3 or 4 set the call asks for no update now; it is about
// min_subscriber_topic_version instead. By default, every change of a
// topic's minimum is pushed at once to every subscriber that registered the
// topic with populate_min_subscriber_topic_version: after each change that
// all subscribers applied, a second update to each of them. A subscriber that
// sets field 4 to true gets changes of the minimum only with its other
// updates (every update carries the minimum), except those it named in field
// 3: for each topic named there, one update as soon as the minimum reaches
// the version given (at once if it already has).
//
// With field 5 set the call is a publication pushed by the subscriber
// instead of waiting to be collected from an UpdateState reply: the
// statestore writes the entries (and clears) of every delta at once, under
// the same rules as a reply's publications (who may write a topic,
// transient entries), and the fan-out to the topic's subscribers starts when
// the call returns. All or nothing: if one delta is refused (a topic the
// statestore does not have, a writer the policy refuses, from_version set,
// a standby statestore) none is written and the status says why. A
// registration whose identity came from a token must send the token again
// in field 6. The response's field 2 then gives, for each topic written, its
// version after the write (at least that of the last entry written).
//
// With field 7 set the call answers UpdateStateOneway updates that the
// subscriber could not apply (a delta that did not start at its processed
// version, a callback that failed, a reply that asked for a new base): for
// each topic, the version to send from next. The statestore takes an entry
// only while the last version it sent that subscriber for the topic is
// still the rejected update's to_version; an older rejection is followed by
// the rejections of the updates sent after it, and the last one is taken.
// It then sends the subscriber an update from that version.
struct TRequestTopicUpdateRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
  2: required Types.TUniqueId registration_id;
  3: optional map<string, i64> min_subscriber_topic_versions_wanted;
  4: optional bool min_subscriber_topic_version_on_request;
  5: optional list<TTopicDelta> topic_updates;
  6: optional string auth_token;
  7: optional list<TTopicResend> resend_from;
}

// Field 3 is true when the statestore holds no registration with the
// request's id (it restarted since, or it dropped the subscriber): nothing
// was done, and the subscriber should register again. A subscriber that
// hears no heartbeat for a while sends an empty request as a probe, so it
// learns of a restarted statestore without waiting out its timeout.
struct TRequestTopicUpdateResponse {
  1: required Status.TStatus status;
  2: optional map<string, i64> topic_versions;
  3: optional bool registration_unknown;
}

service StatestoreService {
  TRegisterSubscriberResponse RegisterSubscriber(1: TRegisterSubscriberRequest params);

  TGetProtocolVersionResponse GetProtocolVersion(1: TGetProtocolVersionRequest params);

  // Extension: see TRequestTopicUpdateRequest.
  TRequestTopicUpdateResponse RequestTopicUpdate(1: TRequestTopicUpdateRequest params);
}

// Topic updates pushed to a subscriber, keyed by topic name.
struct TUpdateStateRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
  2: required map<string, TTopicDelta> topic_deltas;
  3: optional Types.TUniqueId registration_id;
  4: optional Types.TUniqueId statestore_id;
  // This project's own field (Impala's subscribers skip it): with
  // statestored HA, the sending statestore's activation version. A
  // subscriber that has heard of a later activation (UpdateStatestoredRole,
  // a registration reply, another statestore's update) skips the update: it
  // comes from a statestore that was paused or cut off while the other took
  // over and has not stepped down yet, and taking it would mix the two
  // statestores' topic numbering.
  100: optional i64 active_statestored_version;
}

// Subscriber's answer with its own publications; skipped means "not processed".
struct TUpdateStateResponse {
  1: required Status.TStatus status;
  2: required list<TTopicDelta> topic_updates;
  3: optional bool skipped;
  // Our own field: set with skipped when the request's field 100 was older
  // than an activation the subscriber heard of (that activation).
  100: optional i64 newer_statestored_version;
}

struct THeartbeatRequest {
  1: optional StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
  2: optional Types.TUniqueId registration_id;
  3: optional Types.TUniqueId statestore_id;
  4: optional bool request_statestore_conn_state;
}

struct THeartbeatResponse {
  1: required Status.TStatus status;
  2: optional TStatestoreConnState statestore_conn_state;
}

// catalogd high availability: the statestore tells subscribers that asked
// for catalogd changes (subscribe_catalogd_change) which catalogd is active.
// catalogd_version grows with every new designation; a subscriber ignores a
// request older than the designation it already follows.
struct TUpdateCatalogdRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2
  2: required Types.TUniqueId registration_id;
  3: required Types.TUniqueId statestore_id;
  4: required i64 catalogd_version;
  5: required TCatalogRegistration catalogd_registration;
}

// skipped: the subscriber did not take the request in (e.g. it came from a
// statestore or registration it does not know).
struct TUpdateCatalogdResponse {
  1: required Status.TStatus status;
  2: optional bool skipped;
}

// statestored high availability: a statestore announces its role (active or
// standby) to a subscriber registered with both statestores, together with
// the active catalogd it knows of.
struct TUpdateStatestoredRoleRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2;
  2: required Types.TUniqueId registration_id;
  3: required Types.TUniqueId statestore_id;
  4: required i64 active_statestored_version;
  5: required bool is_active;
  6: optional i64 catalogd_version;
  7: optional TCatalogRegistration catalogd_registration;
}

struct TUpdateStatestoredRoleResponse {
  1: required Status.TStatus status;
  2: optional bool skipped;
}

// Calls the statestore makes on each subscriber.
service StatestoreSubscriber {
  TUpdateStateResponse UpdateState(1: TUpdateStateRequest params);

  // This project's own method, called only on subscribers that registered
  // with accepts_oneway_updates, for updates of topics whose
  // min_subscriber_topic_version nobody reads now (no subscriber takes it
  // with every update, none waits for a version). The same request as
  // UpdateState without a reply: the statestore counts the update as sent
  // once it is written to the connection, not as acknowledged. A
  // subscriber that cannot apply it, or has something to say that a reply
  // would carry (publications, a new base), calls RequestTopicUpdate
  // (fields 5 and 7) instead.
  oneway void UpdateStateOneway(1: TUpdateStateRequest params);

  THeartbeatResponse Heartbeat(1: THeartbeatRequest params);

  TUpdateCatalogdResponse UpdateCatalogd(1: TUpdateCatalogdRequest params);

  TUpdateStatestoredRoleResponse UpdateStatestoredRole(
      1: TUpdateStatestoredRoleRequest params);
}

// Between the two statestores of an HA pair: the handshake that settles
// which one is active, then heartbeats from the active to the standby.
struct TStatestoreHaHandshakeRequest {
  1: required StatestoreServiceVersion src_protocol_version =
      StatestoreServiceVersion.V2;
  2: required Types.TUniqueId src_statestore_id;
  3: required string src_statestore_address;
  4: required bool src_force_active;
}

struct TStatestoreHaHandshakeResponse {
  1: required Status.TStatus status;
  2: required StatestoreServiceVersion dst_protocol_version =
      StatestoreServiceVersion.V2;
  3: required Types.TUniqueId dst_statestore_id;
  4: required bool dst_statestore_active;
}

struct TStatestoreHaHeartbeatRequest {
  1: required StatestoreServiceVersion protocol_version =
      StatestoreServiceVersion.V2;
  2: required Types.TUniqueId dst_statestore_id;
  3: required Types.TUniqueId src_statestore_id;
  // This project's own field (an id far from Impala's, which skips it): the
  // CatalogService address of the catalogd the sending (active) statestore
  // designated, so that a standby taking over keeps that catalogd active
  // instead of choosing again.
  100: optional Types.TNetworkAddress active_catalogd_address;
  // Also our own: the sender's active_statestored_version (its activation;
  // of two active statestores the later activation keeps the role) and the
  // designation version of active_catalogd_address (a standby that takes
  // over designates above it).
  101: optional i64 active_statestored_version;
  102: optional i64 catalogd_version;
}

// Fields 100 and 101 are our own (Impala's statestored skips them): the
// answering statestore's role and activation version, so an active
// statestore that was stopped while its peer took over steps down on the
// first answer instead of waiting for the peer's own heartbeat.
struct TStatestoreHaHeartbeatResponse {
  1: required Status.TStatus status;
  100: optional bool dst_statestore_active;
  101: optional i64 dst_active_statestored_version;
}

service StatestoreHaService {
  TStatestoreHaHandshakeResponse StatestoreHaHandshake(
      1: TStatestoreHaHandshakeRequest params);

  TStatestoreHaHeartbeatResponse StatestoreHaHeartbeat(
      1: TStatestoreHaHeartbeatRequest params);
}
