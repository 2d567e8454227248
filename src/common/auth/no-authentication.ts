import { SetMetadata } from '@nestjs/common';

export const NO_AUTHENTICATION_KEY = 'glossa:noAuthentication';

/**
 * Marks a route that reads no credentials at all: the auth guard leaves the request anonymous and does not
 * look at `Authorization` (a stale or foreign token there is not a 401). Weblate's repository hooks are such
 * routes (authentication_classes = [] and AllowAny, CSRF-exempt in 4.x; integration.md §1.2): code hosts
 * send their own headers, and a hook can only queue a pull, never read data. The route is chosen by this
 * handler metadata, not by a path test, so no other spelling of an API path can borrow it (issue 10 item 4).
 */
export const NoAuthentication = (): MethodDecorator & ClassDecorator => SetMetadata(NO_AUTHENTICATION_KEY, true);
