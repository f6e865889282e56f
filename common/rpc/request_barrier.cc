#include "common/rpc/request_barrier.h"

#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TTransportException.h>

namespace ics {

using apache::thrift::TApplicationException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;
using apache::thrift::transport::TTransportException;

namespace {

// Writes `x` as the reply to the message `name`/`seqid`. Best effort.
void WriteException(TProtocol& out, const std::string& name, int32_t seqid,
                    const TApplicationException& x) {
  try {
    out.writeMessageBegin(name, apache::thrift::protocol::T_EXCEPTION, seqid);
    x.write(&out);
    out.writeMessageEnd();
    out.getTransport()->writeEnd();
    out.getTransport()->flush();
  } catch (const std::exception&) {
    // The peer may be gone; the connection is closed next anyway.
  }
}

RequestResult Reject(const BoundedProtocol& in, TProtocol& out, const std::string& server_name,
                     std::string what) {
  // Only while the request is still being read: once it was read, the
  // processor itself answers handler failures, and a failure while writing
  // the reply leaves nothing sensible to add to the stream.
  if (in.reading_message()) {
    WriteException(out, in.message_name(), in.message_seqid(),
                   TApplicationException(TApplicationException::PROTOCOL_ERROR,
                                         server_name + " rejected the request: " + what));
  }
  return {RequestOutcome::kRejected, std::move(what), false};
}

}  // namespace

RequestResult ProcessGuarded(apache::thrift::TProcessor& processor,
                             const std::shared_ptr<BoundedProtocol>& in,
                             const std::shared_ptr<TProtocol>& out,
                             const std::string& server_name) {
  RequestResult result;
  try {
    result.outcome = processor.process(in, out, nullptr) ? RequestOutcome::kServed
                                                         : RequestOutcome::kFinished;
  } catch (const TTransportException& e) {
    std::string what = e.what();
    if (what.find("MaxMessageSize") != std::string::npos) {
      result = Reject(*in, *out, server_name, std::move(what));  // Thrift's size check
    } else if (e.getType() == TTransportException::TIMED_OUT) {
      result = {RequestOutcome::kTimedOut, std::move(what), in->reading_message()};
    } else {
      result = {RequestOutcome::kPeerGone, std::move(what), in->reading_message()};
    }
  } catch (const std::exception& e) {
    result = Reject(*in, *out, server_name, e.what());
  } catch (...) {
    result = Reject(*in, *out, server_name, "unknown exception");
  }
  in->budget().Reset();
  return result;
}

RequestResult ProcessRequestBytes(apache::thrift::TProcessor& processor, std::string_view request,
                                  DecodeBudget::Limits limits, std::string* reply) {
  const int limit = static_cast<int>(std::min<int64_t>(limits.max_wire_bytes, INT32_MAX));
  auto config = std::make_shared<apache::thrift::TConfiguration>(limit, limit);
  auto input = std::make_shared<TMemoryBuffer>(
      reinterpret_cast<uint8_t*>(const_cast<char*>(request.data())),
      static_cast<uint32_t>(request.size()), TMemoryBuffer::OBSERVE, config);
  auto output = std::make_shared<TMemoryBuffer>();
  BoundedProtocol::Options bounds;
  bounds.limits = limits;
  bounds.binary_inner = true;
  bounds.hold_until_reset = true;
  auto in = std::make_shared<BoundedProtocol>(
      std::make_shared<TBinaryProtocol>(input, kMaxMessageNameBytes, limit, false, true), bounds);
  auto out = std::make_shared<TBinaryProtocol>(output);
  RequestResult result{RequestOutcome::kPeerGone, "no input", false};
  while (input->available_read() > 0) {
    result = ProcessGuarded(processor, in, out, "in-process");
    if (result.outcome != RequestOutcome::kServed) break;
  }
  if (reply != nullptr) *reply = output->getBufferAsString();
  return result;
}

}  // namespace ics
