import { Module } from '@nestjs/common';
import { registerSuggestionSearch } from './suggestion-search';
import { SuggestionsController } from './suggestions.controller';
import { SuggestionsService } from './suggestions.service';
import { SuggestionUploadService } from './suggestion-upload.service';
import { UnitSuggestionsController } from './unit-suggestions.controller';

/**
 * Suggestions (issue 13 item 3): `/api/suggestions/` and the suggestions sub-list of a unit. Exports the
 * upload side so the translation upload's `method=suggest` stores suggestions through it; it imports no
 * resource module itself (the import graph stays acyclic).
 */
@Module({
  controllers: [SuggestionsController, UnitSuggestionsController],
  providers: [SuggestionsService, SuggestionUploadService],
  exports: [SuggestionUploadService],
})
export class SuggestionsModule {
  constructor() {
    registerSuggestionSearch();
  }
}
