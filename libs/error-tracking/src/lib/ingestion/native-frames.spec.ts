import { nativeFunctionName } from './native-frames';

describe('native function names, as Sentry groups them', () => {
  it.each([
    [
      'std::vector<int, std::allocator<int> >::push_back(int const&) + 12',
      'std::vector<T>::push_back',
    ],
    ['void ns::Parser::header(char const*, int) const', 'ns::Parser::header'],
    ['ns::Parser::header(char const*, long) + 0x1f', 'ns::Parser::header'],
    ['(anonymous namespace)::crash(int)', 'anonymous_namespace::crash'],
    ['foo::operator<<(std::ostream&)', 'foo::operator<<'],
    [
      'std::function<void ()>::operator()() const',
      'std::function<T>::operator()',
    ],
    [
      'unsigned long hash<std::string>(std::string const&) [clone .cold]',
      'hash<T>',
    ],
    ['sentry_rust_client::outer::<u8>', 'sentry_rust_client::outer::<T>'],
    ['-[CRLCrashAsyncSafeThread crash]', '-[CRLCrashAsyncSafeThread crash]'],
    ['main', 'main'],
  ])('%j is %j', (name, grouped) => {
    expect(nativeFunctionName(name)).toBe(grouped);
  });
});
