// The exception barrier around one Thrift request, shared by the RPC server
// (one call per request on a connection) and by in-process callers that feed
// raw request bytes to a processor (fuzz targets, robustness tests).
//
// ProcessGuarded runs processor.process() once and never lets an exception
// out. A request that fails while it is being read (malformed, truncated,
// over its decode budget, std::bad_alloc, anything) is answered with a
// TApplicationException(PROTOCOL_ERROR) when its header was read, and the
// caller must then close the connection (the stream position is unknown).
//
// Thread-safety: stateless; the protocols belong to the calling thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <thrift/TProcessor.h>

#include "common/rpc/bounded_protocol.h"

namespace ics {

enum class RequestOutcome {
  kServed,    // a request was handled; the connection may continue
  kFinished,  // the processor asked to close (e.g. a non-call message)
  kPeerGone,  // end of input or connection closed between or within requests
  kTimedOut,  // an idle or request deadline passed
  kRejected,  // the request could not be read or handled; close the connection
};

struct RequestResult {
  RequestOutcome outcome = RequestOutcome::kServed;
  std::string error;       // why, for kRejected / kTimedOut
  bool mid_request = false;  // kPeerGone: the input ended inside a request
};

// Runs one request from `in`, writing the reply (or the error reply) to `out`.
// Resets in's decode budget afterwards.
RequestResult ProcessGuarded(apache::thrift::TProcessor& processor,
                             const std::shared_ptr<BoundedProtocol>& in,
                             const std::shared_ptr<apache::thrift::protocol::TProtocol>& out,
                             const std::string& server_name);

// Feeds `request` (the bytes a peer would send on a connection, possibly
// several messages) to `processor` through the same bounded protocol stack as
// the server uses, until the input ends or a request is rejected. Returns the
// outcome of the last request; `reply` (optional) receives every byte written
// back. For fuzz targets and tests: no sockets, no threads.
RequestResult ProcessRequestBytes(apache::thrift::TProcessor& processor, std::string_view request,
                                  DecodeBudget::Limits limits, std::string* reply = nullptr);

}  // namespace ics
