#include "catalogd/service/catalog_service_processor.h"

#include <thrift/TApplicationException.h>

#include "catalogd/fetch/partial_response_writer.h"
#include "common/rpc/thrift_message.h"

namespace ics::catalog {

using apache::thrift::TApplicationException;
using apache::thrift::protocol::T_EXCEPTION;
using apache::thrift::protocol::T_REPLY;
using apache::thrift::protocol::TProtocol;

namespace {

constexpr const char* kMethod = "GetPartialCatalogObject";

}  // namespace

bool StreamingCatalogServiceProcessor::dispatchCall(TProtocol* in, TProtocol* out,
                                                    const std::string& fname, int32_t seqid,
                                                    void* call_context) {
  if (fname != kMethod) {
    return impala::CatalogServiceProcessor::dispatchCall(in, out, fname, seqid, call_context);
  }
  GetPartialCatalogObject(in, out, seqid);
  return true;
}

void StreamingCatalogServiceProcessor::GetPartialCatalogObject(TProtocol* in, TProtocol* out,
                                                               int32_t seqid) {
  // Reading and errors as the generated process_GetPartialCatalogObject.
  impala::CatalogService_GetPartialCatalogObject_args args;
  args.read(in);
  in->readMessageEnd();
  in->getTransport()->readEnd();

  PartialFetchAnswer answer;
  try {
    answer = fetch_(args.req);
  } catch (const std::exception& e) {
    TApplicationException x(e.what());
    out->writeMessageBegin(kMethod, T_EXCEPTION, seqid);
    x.write(out);
    out->writeMessageEnd();
    out->getTransport()->writeEnd();
    out->getTransport()->flush();
    return;
  }

  // The generated result wrapper: one struct field, 0 "success".
  WriteOneFieldMessage(out, kMethod, T_REPLY, seqid, "CatalogService_GetPartialCatalogObject_result",
                       "success", 0, [&](TProtocol* o) {
                         if (answer.deferred) {
                           WritePartialObjectResponse(
                               o, answer.resp,
                               DeferredPartitions{&answer.partitions, &args.req.table_info_selector});
                         } else {
                           answer.resp.write(o);
                         }
                       });
}

}  // namespace ics::catalog
