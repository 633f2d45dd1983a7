// Run by flex-services.e2e-spec.ts in its own process, as an External Flex
// service runs: a service written with kinvey-flex-sdk 3.3.0 on FLEX_PORT
// with FLEX_SECRET as its shared secret. It prints one line once it listens.
const sdk = require('kinvey-flex-sdk');

const farms = new Map();
let nextFarm = 1;

// Kinvey hands the query parameters on as they came: `query` is JSON text.
function matches(doc, params) {
  const query = JSON.parse(params.query || '{}');
  return Object.entries(query).every(([field, value]) => doc[field] === value);
}

sdk.service(
  {
    host: '127.0.0.1',
    port: Number(process.env.FLEX_PORT),
    sharedSecret: process.env.FLEX_SECRET,
  },
  (error, flex) => {
    if (error) throw error;

    // A custom endpoint: who called, with what.
    flex.functions.register('hello', (context, complete) =>
      complete()
        .setBody({
          greeting: `hello ${context.body.name}`,
          username: context.username,
          userId: context.userId,
        })
        .ok()
        .done(),
    );

    // A custom endpoint that calls back into the app's data and users with
    // the secrets it was handed (master rights, business logic skipped).
    flex.functions.register('offerSummary', (context, complete, modules) => {
      modules
        .dataStore()
        .collection('offers')
        .find(new modules.Query(), (findError, found) => {
          if (findError)
            return complete().setBody(findError).runtimeError().done();
          const users = modules.userStore();
          return users.findById(context.userId, (userError, user) => {
            if (userError)
              return complete().setBody(userError).runtimeError().done();
            return users.count((countError, counted) => {
              if (countError)
                return complete().setBody(countError).runtimeError().done();
              return complete()
                .setBody({
                  offers: found.length,
                  stamped: found.filter(
                    (offer) => offer.checkedBy !== undefined,
                  ).length,
                  caller: user.username,
                  users: counted.count,
                })
                .ok()
                .done();
            });
          });
        });
    });

    // Asks the app as the calling user (its session token handed on).
    flex.functions.register('myOffers', (context, complete, modules) => {
      modules
        .dataStore({ useUserContext: true })
        .collection('offers')
        .find(new modules.Query(), (findError, found) => {
          if (findError)
            return complete().setBody(findError).runtimeError().done();
          return complete().setBody({ mine: found.length }).ok().done();
        });
    });

    // Tries the app's administration with the master secret it was handed.
    flex.functions.register('tryAdmin', (context, complete, modules) => {
      const app = modules.backendContext;
      const auth = Buffer.from(
        `${app.getAppKey()}:${app.getMasterSecret()}`,
      ).toString('base64');
      const url = `${context.body.baasUrl}/admin/${app.getAppKey()}/business-logic`;
      fetch(url, { headers: { authorization: `Basic ${auth}` } }).then(
        async (res) =>
          complete()
            .setBody({ status: res.status, body: await res.json() })
            .ok()
            .done(),
        (error) => complete().setBody(error).runtimeError().done(),
      );
    });

    // Mails through the app (`modules.email`), with the secret it was handed.
    flex.functions.register('mailGrower', (context, complete, modules) => {
      const done = (error, response) =>
        error
          ? complete().setBody(error).runtimeError().done()
          : complete().setBody({ response }).ok().done();
      modules.email.send(
        'someone-else@sender.test',
        context.body.to,
        'Your offer',
        'It was saved.',
        null,
        null,
        null,
        null,
        done,
      );
    });

    flex.functions.register('failing', (context, complete) =>
      complete()
        .setBody(new Error('the failing endpoint failed'))
        .runtimeError()
        .done(),
    );

    // Never completes: Quitanda's timeout ends it.
    flex.functions.register('stuck', () => undefined);

    // onPreSave of offers: a negative price is refused, a name trimmed.
    flex.functions.register('checkOffer', (context, complete) => {
      if (typeof context.body.price === 'number' && context.body.price < 0)
        return complete()
          .setBody({ reason: 'price must not be negative' })
          .badRequest()
          .done();
      const body = { ...context.body };
      if (typeof body.name === 'string') body.name = body.name.trim();
      return complete().setBody(body).next();
    });

    // onPostFetch of offers: every entity fetched gets a field.
    flex.functions.register('stampOffers', (context, complete) => {
      const stamp = (doc) => ({ ...doc, checkedBy: 'flex' });
      const body = Array.isArray(context.body)
        ? context.body.map(stamp)
        : stamp(context.body);
      return complete().setBody(body).next();
    });

    // onPreSave of user (signups and updates): "spam" names refused, the
    // others stamped and their nickname trimmed.
    flex.functions.register('checkMember', (context, complete) => {
      if (String(context.body.username).startsWith('spam'))
        return complete()
          .setBody({ reason: 'no spam accounts' })
          .badRequest()
          .done();
      const body = { ...context.body, checkedBy: 'flex' };
      if (typeof body.nickname === 'string')
        body.nickname = body.nickname.trim();
      return complete().setBody(body).next();
    });

    // onPostFetch of user: every user read gets a greeting.
    flex.functions.register('greetMembers', (context, complete) => {
      const greet = (user) => ({ ...user, greeting: `hello ${user.username}` });
      const body = Array.isArray(context.body)
        ? context.body.map(greet)
        : greet(context.body);
      return complete().setBody(body).next();
    });

    // onPreDelete of user: members are kept.
    flex.functions.register('keepMembers', (context, complete) =>
      complete().setBody({ reason: 'members are kept' }).badRequest().done(),
    );

    // FlexData: farms kept by the service.
    const farmObject = flex.data.serviceObject('farms');
    farmObject.onInsert((request, complete) => {
      const farm = { ...request.body, _id: `farm-${nextFarm++}` };
      farms.set(farm._id, farm);
      return complete().setBody(farm).created().done();
    });
    farmObject.onGetAll((request, complete) =>
      complete()
        .setBody([...farms.values()])
        .ok()
        .done(),
    );
    farmObject.onGetByQuery((request, complete) =>
      complete()
        .setBody(
          [...farms.values()].filter((farm) => matches(farm, request.query)),
        )
        .ok()
        .done(),
    );
    farmObject.onGetById((request, complete) => {
      const farm = farms.get(request.entityId);
      return farm
        ? complete().setBody(farm).ok().done()
        : complete().notFound().done();
    });
    farmObject.onGetCount((request, complete) =>
      complete().setBody({ count: farms.size }).ok().done(),
    );
    farmObject.onUpdate((request, complete) => {
      const farm = { ...request.body, _id: request.entityId };
      farms.set(farm._id, farm);
      return complete().setBody(farm).ok().done();
    });
    farmObject.onDeleteById((request, complete) => {
      const existed = farms.delete(request.entityId);
      return complete()
        .setBody({ count: existed ? 1 : 0 })
        .ok()
        .done();
    });

    process.stdout.write('flex service listening\n');
  },
);
