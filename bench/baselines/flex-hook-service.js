// Started by the bench's "create with a pre-save hook" workload: an External
// Flex service written with kinvey-flex-sdk 3.3.0 (as an app's own would
// be) on FLEX_PORT with FLEX_SECRET. Its one hook hands the body on as it
// came, so what the workload measures is the gateway's side of a hook.
const sdk = require('kinvey-flex-sdk');

sdk.service(
  {
    host: '127.0.0.1',
    port: Number(process.env.FLEX_PORT),
    sharedSecret: process.env.FLEX_SECRET,
  },
  (error, flex) => {
    if (error) throw error;
    flex.functions.register('passOn', (context, complete) =>
      complete().setBody(context.body).next(),
    );
    console.log('flex service listening');
  },
);
