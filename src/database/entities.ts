import { Group, Role } from '../modules/access/access.entities';
import { Change } from '../modules/changes/change.entity';
import { Component } from '../modules/components/component.entity';
import { Language } from '../modules/languages/language.entity';
import { Project } from '../modules/projects/project.entity';
import { Task } from '../modules/tasks/task.entity';
import { Translation } from '../modules/translations/translation.entity';
import { Unit } from '../modules/units/unit.entity';
import { ApiToken } from '../modules/users/api-token.entity';
import { Subscription } from '../modules/users/subscription.entity';
import { User } from '../modules/users/user.entity';

export const ENTITIES = [Language, Project, Component, Translation, Unit, Change, User, ApiToken, Subscription, Task, Role, Group];
