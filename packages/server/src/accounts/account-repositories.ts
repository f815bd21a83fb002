import type { LoginMethodsRepository } from './login-methods.repository.js';
import type { TokensRepository } from './tokens.repository.js';
import type { UsersRepository } from './users.repository.js';

/**
 * The accounts' repositories over one executor, built once in accounts.module.ts (over `db`, and over `reads` for
 * the operator's search). Inside a transaction a service makes its own over the `trx`: the same classes.
 */
export interface AccountRepositories {
  users: UsersRepository;
  methods: LoginMethodsRepository;
  tokens: TokensRepository;
}
