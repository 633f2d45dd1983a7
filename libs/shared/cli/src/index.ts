export { CliOption, requireOptions } from './lib/cli-options';
export { printJson, printLine } from './lib/cli-output';
export { readSecret, refuseSecretArguments } from './lib/read-secret';
