import { Module } from '@nestjs/common';
import { ChangesModule } from '../changes/changes.module';
import { NotificationDigests } from './notification-digests.service';
import { NotificationFeedConsumer } from './notification-feed.consumer';
import { NotificationMailSender } from './notification-mail.sender';

/**
 * E-mail notifications (issue 14 item 3, README "E-mail notifications"): follows the change feed, queues the
 * mails users' subscriptions ask for, sends them over SMTP, and sends the digests. No routes: subscriptions
 * are managed under /api/users/{username}/notifications/ (src/modules/users). Does nothing without EMAIL_HOST.
 */
@Module({
  imports: [ChangesModule],
  providers: [NotificationMailSender, NotificationFeedConsumer, NotificationDigests],
  exports: [NotificationDigests, NotificationMailSender, NotificationFeedConsumer],
})
export class NotificationsMailModule {}
