import { Module } from '@nestjs/common';
import { registerCommentSearch } from './comment-search';
import { CommentsService } from './comments.service';
import { UnitCommentsController } from './unit-comments.controller';

/** Comments on units (issue 13 item 4): the comments sub-list of a unit, resolving and removing. */
@Module({
  controllers: [UnitCommentsController],
  providers: [CommentsService],
})
export class CommentsModule {
  constructor() {
    registerCommentSearch();
  }
}
