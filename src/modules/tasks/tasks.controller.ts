import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { TaskResponse, toTaskResponse } from './task.response';
import { TasksService } from './tasks.service';

/** `/api/tasks/<uuid>/`; there is no list route, so `/api/tasks/` is 404 (weblate-api.md §5.14). */
@ApiTags('tasks')
@Controller('api/tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get(':id')
  @ApiOperation({ operationId: 'getTask', summary: 'Get a background task' })
  @ApiOkResponse({ type: TaskResponse })
  async detail(@Param('id') id: string): Promise<TaskResponse> {
    return toTaskResponse(await this.tasks.get(id));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'cancelTask', summary: 'Cancel a background task' })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Cancelled (or already finished)' })
  async cancel(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<void> {
    await this.tasks.cancel(ctx, id);
  }
}
