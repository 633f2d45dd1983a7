import { DomainError } from '@quitanda/kernel';

/**
 * What a command's failure says to the person at the terminal: a context
 * error's plain words (its wire message is the API's), else the message.
 */
export function plainMessage(error: Error): string {
  return error instanceof DomainError ? error.plainMessage : error.message;
}
