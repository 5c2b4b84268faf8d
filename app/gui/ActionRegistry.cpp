// SPDX-License-Identifier: GPL-3.0-or-later
#include "ActionRegistry.h"

#include "Error.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

#include <set>

namespace specdec::gui {

ActionRegistry::ActionRegistry(QMenuBar *menuBar, QObject *parent)
    : QObject(parent)
{
    for (MenuId id : {MenuId::File, MenuId::Play, MenuId::View, MenuId::Classroom, MenuId::Help})
        m_menus[id] = menuBar->addMenu(QString());
    m_menus[MenuId::Language] = new QMenu(m_menus[MenuId::View]);
    retranslate();
}

QAction *ActionRegistry::add(const QString &id, MenuId menu, int section, Text text, const QKeySequence &shortcut)
{
    return adopt(new QAction(this), id, menu, section, std::move(text), shortcut);
}

QAction *ActionRegistry::adopt(QAction *action, const QString &id, MenuId menu, int section, Text text,
                               const QKeySequence &shortcut)
{
    if (this->action(id))
        throw Error("action " + id.toStdString() + " is declared twice");
    action->setObjectName(id);
    if (!shortcut.isEmpty())
        action->setShortcut(shortcut);
    if (text)
        action->setText(text());
    m_entries.push_back({id, action, menu, section, std::move(text)});
    rebuild(menu);
    return action;
}

QAction *ActionRegistry::action(const QString &id) const
{
    for (const Entry &e : m_entries)
        if (e.id == id)
            return e.action;
    return nullptr;
}

QMenu *ActionRegistry::menu(MenuId menu) const
{
    return m_menus.at(menu);
}

QList<QAction *> ActionRegistry::actions() const
{
    QList<QAction *> all;
    for (const Entry &e : m_entries)
        all << e.action;
    return all;
}

QStringList ActionRegistry::ids() const
{
    QStringList all;
    for (const Entry &e : m_entries)
        all << e.id;
    return all;
}

QStringList ActionRegistry::duplicateShortcuts() const
{
    QStringList out;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        for (std::size_t j = i + 1; j < m_entries.size(); ++j)
            for (const QKeySequence &a : m_entries[i].action->shortcuts())
                if (!a.isEmpty() && m_entries[j].action->shortcuts().contains(a))
                    out << QStringLiteral("%1 = %2 (%3)")
                               .arg(m_entries[i].id, m_entries[j].id, a.toString(QKeySequence::PortableText));
    return out;
}

void ActionRegistry::retranslate()
{
    m_menus[MenuId::File]->setTitle(tr("&File"));
    m_menus[MenuId::Play]->setTitle(tr("&Play"));
    m_menus[MenuId::View]->setTitle(tr("&View"));
    m_menus[MenuId::Language]->setTitle(tr("&Language"));
    m_menus[MenuId::Classroom]->setTitle(tr("&Classroom"));
    m_menus[MenuId::Help]->setTitle(tr("&Help"));
    for (const Entry &e : m_entries)
        if (e.text)
            e.action->setText(e.text());
}

void ActionRegistry::rebuild(MenuId id)
{
    QMenu *menu = m_menus.at(id);
    menu->clear(); // removes the actions from the menu; they stay owned by their parents
    std::set<int> sections;
    for (const Entry &e : m_entries)
        if (e.menu == id)
            sections.insert(e.section);
    bool first = true;
    for (int section : sections) {
        if (!first)
            menu->addSeparator();
        first = false;
        for (const Entry &e : m_entries)
            if (e.menu == id && e.section == section)
                menu->addAction(e.action);
    }
    if (id == MenuId::View) {
        menu->addSeparator();
        menu->addMenu(m_menus.at(MenuId::Language));
    }
}

} // namespace specdec::gui
