// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonLibrary.h"

#include "LessonPanel.h"
#include "Lessons.h"
#include "MainWindow.h"

#include <QDockWidget>

#include <utility>

namespace specdec::gui {

LessonLibrary::LessonLibrary(MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_panel(new LessonPanel)
    , m_dock(new QDockWidget(window))
{
    m_files = app::loadLessonFolder(lessonsFolder(), &m_errors);
    m_dock->setObjectName(QStringLiteral("LessonsDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_panel, &LessonPanel::applyRequested, this, &LessonLibrary::applyRequested);
}

QStringList LessonLibrary::takeErrors()
{
    return std::exchange(m_errors, {});
}

int LessonLibrary::add(const QString &path)
{
    const app::LessonFile lesson = app::LessonFile::load(path);
    for (int i = 0; i < m_files.size(); ++i)
        if (m_files[i].id == lesson.id) {
            m_files[i] = lesson;
            retranslate();
            return i;
        }
    m_files << lesson;
    retranslate();
    return static_cast<int>(m_files.size()) - 1;
}

bool LessonLibrary::show(int index)
{
    if (index < 0 || index >= m_files.size())
        return false;
    m_panel->setCurrentLesson(index);
    m_dock->show();
    // The explanation beside the run gets most of the left column; the timeline keeps the rest.
    m_window->resizeDocks({m_window->dock(MainWindow::Dock::Timeline), m_dock}, {2, 3}, Qt::Vertical);
    return true;
}

void LessonLibrary::retranslate()
{
    m_dock->setWindowTitle(tr("Lessons"));
    QList<LessonPanel::Entry> entries;
    for (const app::LessonFile &l : std::as_const(m_files))
        entries << lessonEntry(l);
    m_panel->setLessons(entries);
}

} // namespace specdec::gui
