import { IncomingMessage, ServerResponse } from 'node:http';

/** The prototypes Express gives its requests and responses. */
export interface ExpressPrototypes {
  request: object;
  response: object;
}

export interface MessageClasses {
  readonly IncomingMessage: typeof IncomingMessage;
  readonly ServerResponse: typeof ServerResponse;
}

/**
 * Takes over `app.request` and `app.response` with the prototypes of two
 * subclasses of Node's messages (the same properties, the same chain), and
 * returns the subclasses for `http.createServer`: its requests and
 * responses are then born with the prototypes Express gives them.
 *
 * Express swaps every request's and response's prototype with
 * `Object.setPrototypeOf`; V8 then gives each object a shape of its own,
 * so every property Express, Nest and the gateway add made new hidden
 * classes per request and every property access that sees several shapes
 * missed its cache: a quarter of a marketplace read's instructions. Born
 * with the prototype, the swap changes nothing and the shapes are shared.
 * Subclasses rather than functions with that prototype: V8 sizes a
 * subclass's objects from Node's constructors, and an object short of
 * in-object room turns into a slow dictionary at the first symbol-keyed
 * property (Node and the router add several).
 */
export function adoptExpressPrototypes(app: ExpressPrototypes): MessageClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  app.request = adopt(ExpressRequest.prototype, app.request);
  app.response = adopt(ExpressResponse.prototype, app.response);
  return {
    IncomingMessage: ExpressRequest,
    // Node's type asks for a generic constructor; this one serves any request.
    ServerResponse: ExpressResponse as typeof ServerResponse,
  };
}

/** `prototype`, made to hold what `like` holds and inherit what it inherits. */
function adopt(prototype: object, like: object): object {
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(like));
  Object.defineProperties(prototype, Object.getOwnPropertyDescriptors(like));
  return prototype;
}
