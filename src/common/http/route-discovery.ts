import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { RouteTable } from './route-table';

function joinPaths(...parts: string[]): string {
  const joined = parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment.length > 0)
    .join('/');
  return `/${joined}/`;
}

function asArray(value: unknown): string[] {
  if (value === undefined || value === null) return [''];
  return Array.isArray(value) ? (value as string[]) : [String(value)];
}

/** The route patterns (`/api/units/:id/`) of one handler: each controller path joined with each of its paths. */
export function routePatternsOf(controller: object, handler: object, globalPrefix = ''): string[] {
  const controllerPaths = asArray(Reflect.getMetadata(PATH_METADATA, controller));
  const methodPaths = asArray(Reflect.getMetadata(PATH_METADATA, handler));
  return controllerPaths.flatMap((controllerPath) => methodPaths.map((methodPath) => joinPaths(globalPrefix, controllerPath, methodPath)));
}

/**
 * Reads every controller route from Nest's metadata, so `Allow` and 405 come from the same declarations
 * that register the handlers (nothing to keep in sync by hand).
 */
export function discoverRoutes(discovery: DiscoveryService, scanner: MetadataScanner, globalPrefix: string): RouteTable {
  const table = new RouteTable();
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    if (!instance || !wrapper.metatype) continue;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const handler = (prototype as Record<string, unknown>)[methodName] as object;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (requestMethod === undefined) continue;
      for (const pattern of routePatternsOf(wrapper.metatype, handler, globalPrefix)) table.add(pattern, RequestMethod[requestMethod]);
    }
  }
  return table;
}
