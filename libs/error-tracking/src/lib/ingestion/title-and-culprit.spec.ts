import type { JsonObject } from '../sentry-event/event-json';
import { normalizeEvent } from './normalize-event';

const ctx = { receivedAt: new Date('2026-11-22T10:00:00.000Z') };

function frame(
  fn: string,
  where: JsonObject,
  inApp: boolean,
  extra: JsonObject = {},
): JsonObject {
  return { function: fn, ...where, in_app: inApp, ...extra };
}

const rubyVendor = frame('call', { filename: 'puma/server.rb' }, false);

/** Small events in the shape each SDK sends, with what Sentry shows for them. */
const CASES: ReadonlyArray<[string, JsonObject, string, string]> = [
  [
    'Rails: the transaction, not the library crash frame',
    {
      platform: 'ruby',
      transaction: 'PostsController#error2',
      exception: {
        values: [
          {
            type: 'ActionView::MissingTemplate',
            value: 'Missing template posts/error2\nSearched in: app/views',
            stacktrace: {
              frames: [
                rubyVendor,
                frame(
                  'error2',
                  { filename: 'app/controllers/posts_controller.rb' },
                  true,
                ),
                frame('find', { filename: 'action_view/path_set.rb' }, false),
              ],
            },
          },
        ],
      },
    },
    'ActionView::MissingTemplate: Missing template posts/error2',
    'PostsController#error2',
  ],
  [
    'Ruby capture_message: the thread snapshot is never the culprit',
    {
      platform: 'ruby',
      message: 'payment retried',
      threads: {
        values: [
          {
            id: 1,
            crashed: false,
            current: true,
            stacktrace: {
              frames: [
                frame('checkout', { filename: 'app/services/pay.rb' }, true),
                frame('capture_message', { filename: 'sentry/hub.rb' }, false),
              ],
            },
          },
        ],
      },
    },
    'payment retried',
    '',
  ],
  [
    'Django: the transaction',
    {
      platform: 'python',
      transaction: '/orders/<int:order_id>/',
      exception: {
        values: [
          {
            type: 'ValueError',
            value: 'order has no items',
            stacktrace: {
              frames: [
                frame(
                  'inner',
                  { module: 'django.core.handlers.exception' },
                  false,
                ),
                frame('order_detail', { module: 'shop.views' }, true),
              ],
            },
          },
        ],
      },
    },
    'ValueError: order has no items',
    '/orders/<int:order_id>/',
  ],
  [
    'Python script: the most recent in-app frame',
    {
      platform: 'python',
      exception: [
        {
          type: 'KeyError',
          value: "'total'",
          stacktrace: {
            frames: [
              frame('main', { module: '__main__' }, true),
              frame('validate', { module: 'shop.checkout' }, true),
              frame('__getitem__', { module: 'collections' }, false),
            ],
          },
        },
      ],
    },
    "KeyError: 'total'",
    'shop.checkout in validate',
  ],
  [
    'Express: the transaction',
    {
      platform: 'node',
      transaction: 'GET /users/:id',
      exception: {
        values: [
          {
            type: 'TypeError',
            value: "Cannot read properties of undefined (reading 'name')",
            stacktrace: {
              frames: [
                frame(
                  'handle',
                  {
                    module: 'express.lib.router:layer',
                    filename: '/app/node_modules/express/lib/router/layer.js',
                  },
                  false,
                ),
                frame('getUser', { filename: '/app/src/users.js' }, true),
              ],
            },
          },
        ],
      },
    },
    "TypeError: Cannot read properties of undefined (reading 'name')",
    'GET /users/:id',
  ],
  [
    'React click handler: the in-app frame, not react-dom',
    {
      platform: 'javascript',
      request: { url: 'https://shop.example/cart' },
      exception: {
        values: [
          {
            type: 'SyntaxError',
            value: 'Unexpected token < in JSON at position 0',
            stacktrace: {
              frames: [
                frame(
                  'invokeGuardedCallback',
                  { filename: 'react-dom.js' },
                  false,
                ),
                frame('handleClick', { filename: '/static/js/cart.js' }, true),
                frame('JSON.parse', { filename: '<anonymous>' }, false),
              ],
            },
          },
        ],
      },
    },
    'SyntaxError: Unexpected token < in JSON at position 0',
    'handleClick(/static/js/cart.js)',
  ],
  [
    'browser, no frames: the request URL',
    {
      platform: 'javascript',
      request: { url: 'https://shop.example/cart' },
      exception: { values: [{ type: 'Error', value: 'Script error.' }] },
    },
    'Error: Script error.',
    'https://shop.example/cart',
  ],
  [
    'browser message with attached stack (a type-less exception): its message and frames',
    {
      platform: 'javascript',
      message: 'cart is empty',
      exception: {
        values: [
          {
            value: 'cart is empty',
            stacktrace: {
              frames: [
                frame('checkout', { filename: '/static/js/cart.js' }, true),
              ],
            },
          },
        ],
      },
    },
    'cart is empty',
    'checkout(/static/js/cart.js)',
  ],
  [
    'Java exception: the in-app frame',
    {
      platform: 'java',
      exception: {
        values: [
          {
            type: 'IllegalStateException',
            module: 'java.lang',
            value: 'cart locked',
            stacktrace: {
              frames: [
                frame('run', { module: 'java.lang.Thread' }, false),
                frame('pay', { module: 'com.example.shop.Checkout' }, true),
                frame(
                  'checkState',
                  { module: 'com.google.common.base.Preconditions' },
                  false,
                ),
              ],
            },
          },
        ],
      },
    },
    'IllegalStateException: cart locked',
    'com.example.shop.Checkout in pay',
  ],
  [
    'Java message: the thread snapshot is never the culprit',
    {
      platform: 'java',
      message: { formatted: 'stock low for sku 7' },
      threads: {
        values: [
          {
            id: 1,
            crashed: true,
            stacktrace: {
              frames: [
                frame('main', { module: 'com.example.shop.Main' }, true),
                frame('getStackTrace', { module: 'java.lang.Thread' }, false),
              ],
            },
          },
        ],
      },
    },
    'stock low for sku 7',
    '',
  ],
  [
    'Go: the in-app frame of the bare exception list',
    {
      platform: 'go',
      exception: [
        {
          type: '*errors.errorString',
          value: 'unexpected EOF',
          stacktrace: {
            frames: [
              frame('serve', { module: 'net/http' }, false),
              frame('handler', { module: 'main', filename: 'main.go' }, true),
              frame('ReadFull', { module: 'io' }, false),
            ],
          },
        },
      ],
    },
    '*errors.errorString: unexpected EOF',
    'main in handler',
  ],
  [
    'native signal (synthetic): titled by its top in-app function, no frame culprit',
    {
      platform: 'native',
      exception: {
        values: [
          {
            type: 'SIGSEGV',
            value: 'Segfault',
            mechanism: { type: 'signalhandler', synthetic: true },
            stacktrace: {
              frames: [
                frame('main', { package: '/app/crash' }, true, {
                  instruction_addr: '0x1000',
                }),
                frame('parse_header', { package: '/app/crash' }, true, {
                  instruction_addr: '0x1100',
                }),
                frame('memcpy', { package: '/lib/libc.so.6' }, false, {
                  instruction_addr: '0x7f00',
                }),
              ],
            },
          },
        ],
      },
    },
    'parse_header',
    '',
  ],
  [
    'native signal with no frames: its type and value',
    {
      platform: 'native',
      exception: {
        values: [
          {
            type: 'SIGABRT',
            value: 'Abort',
            mechanism: { type: 'signalhandler', synthetic: true },
          },
        ],
      },
    },
    'SIGABRT: Abort',
    '',
  ],
  [
    'Cocoa NSException: the bare in-app function',
    {
      platform: 'cocoa',
      exception: {
        values: [
          {
            type: 'NSInvalidArgumentException',
            value: '-[__NSCFNumber length]: unrecognized selector',
            stacktrace: {
              frames: [
                frame('UIApplicationMain', { package: 'UIKitCore' }, false),
                frame('-[ViewController buy:]', { package: 'Shop' }, true),
                frame(
                  'objc_exception_throw',
                  { package: 'libobjc.A.dylib' },
                  false,
                ),
              ],
            },
          },
        ],
      },
    },
    'NSInvalidArgumentException: -[__NSCFNumber length]: unrecognized selector',
    '-[ViewController buy:]',
  ],
  [
    'Unity: the in-app frame',
    {
      platform: 'csharp',
      exception: {
        values: [
          {
            type: 'NullReferenceException',
            value: 'Object reference not set to an instance of an object',
            module: 'System',
            stacktrace: {
              frames: [
                frame('Update', { module: 'PlayerController' }, true),
                frame(
                  'Move',
                  { module: 'UnityEngine.CharacterController' },
                  false,
                ),
              ],
            },
          },
        ],
      },
    },
    'NullReferenceException: Object reference not set to an instance of an object',
    'PlayerController in Update',
  ],
  [
    'PHP: the in-app frame, not the vendor frame',
    {
      platform: 'php',
      exception: {
        values: [
          {
            type: 'Doctrine\\DBAL\\Exception',
            value: 'connection refused',
            stacktrace: {
              frames: [
                frame(
                  'App\\Controller\\CartController::add',
                  { filename: 'src/Controller/CartController.php' },
                  true,
                ),
                frame(
                  'Doctrine\\DBAL\\Connection::connect',
                  { filename: 'vendor/doctrine/dbal/src/Connection.php' },
                  false,
                ),
              ],
            },
          },
        ],
      },
    },
    'Doctrine\\DBAL\\Exception: connection refused',
    'src/Controller/CartController.php in App\\Controller\\CartController::add',
  ],
  [
    'Elixir: the in-app frame',
    {
      platform: 'elixir',
      exception: [
        {
          type: 'ArithmeticError',
          value: 'bad argument in arithmetic expression',
          module: 'Elixir',
          stacktrace: {
            frames: [
              frame(
                'divide/2',
                { module: 'MyApp.Calc', filename: 'lib/my_app/calc.ex' },
                true,
              ),
              frame('+/2', { module: 'erlang' }, false),
            ],
          },
        },
      ],
    },
    'ArithmeticError: bad argument in arithmetic expression',
    'MyApp.Calc in divide/2',
  ],
  [
    'Elixir message with a top-level stack trace: its own frames',
    {
      platform: 'elixir',
      message: 'GenServer terminating',
      stacktrace: {
        frames: [frame('handle_call/3', { module: 'MyApp.Worker' }, true)],
      },
    },
    'GenServer terminating',
    'MyApp.Worker in handle_call/3',
  ],
  [
    'raven-era SDK: its own culprit, legacy keys read',
    {
      platform: 'python',
      culprit: 'shop.views in index',
      'sentry.interfaces.Exception': {
        values: [{ type: 'ZeroDivisionError', value: 'division by zero' }],
      },
    },
    'ZeroDivisionError: division by zero',
    'shop.views in index',
  ],
  [
    'a value without a type: titled as Sentry does',
    { exception: { values: [{ value: 'something broke' }] } },
    'Error: something broke',
    '',
  ],
  [
    'a multi-line message: its first line',
    { message: 'import failed\nline 2 of details' },
    'import failed',
    '',
  ],
];

describe('title and culprit, as Sentry shows them', () => {
  it.each(CASES)('%s', (_case, raw, title, culprit) => {
    const event = normalizeEvent(raw, ctx);
    expect([event.title, event.culprit]).toEqual([title, culprit]);
  });
});
