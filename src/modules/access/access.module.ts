import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessBootstrap } from './access-bootstrap';
import { Group, Role } from './access.entities';
import { AccessService } from './access.service';
import { DelegationService } from './delegation.service';
import { GroupsController } from './groups.controller';
import { RolesController } from './roles.controller';
import { UserAccessController } from './user-access.controller';
import { UserAccessService } from './user-access.service';

/** Teams, roles, memberships and API keys (issue 3 item 1). */
@Module({
  imports: [TypeOrmModule.forFeature([Group, Role])],
  controllers: [GroupsController, RolesController, UserAccessController],
  providers: [AccessService, UserAccessService, DelegationService, AccessBootstrap],
  exports: [AccessService],
})
export class AccessModule {}
