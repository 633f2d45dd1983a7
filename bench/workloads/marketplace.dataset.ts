/**
 * The marketplace benchmark's data, the same for every server compared:
 * 500 producers, 50 products with images, 10,000 available assortments of
 * three items each, and login users with one known password.
 */
export const PRODUCERS = 500;
export const ASSORTMENTS = 10_000;
export const PRODUCTS = 50;
export const LOGIN_USERS = 20;
export const LOGIN_PASSWORD = 'correct horse battery staple';

export interface BenchProduct {
  readonly name: string;
  readonly measurement: 'un' | 'kg';
  readonly image: string;
}

/** Product `n` and the file name of its image. */
export function benchProduct(n: number): BenchProduct {
  return {
    name: `Product ${n}`,
    measurement: n % 2 ? 'kg' : 'un',
    image: `product-${n}.png`,
  };
}

/** The three offered items of assortment `n`. */
export function benchAssortmentItems(n: number) {
  return [0, 1, 2].map((k) => ({
    name: `Product ${(n + k) % PRODUCTS}`,
    measurement: 'kg',
    quantity: String(1 + (n % 9)),
    price: `${1 + (n % 7)}.50`,
  }));
}

/** A random login user's credentials as a login request body. */
export function benchLoginBody(): string {
  const n = Math.floor(Math.random() * LOGIN_USERS);
  return JSON.stringify({
    username: `buyer${n}@example.com`,
    password: LOGIN_PASSWORD,
  });
}
